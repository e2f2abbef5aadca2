import type { Page } from '../../src/page/index.ts'
import { RUNTIME_DATA_ID, scriptJson, type RuntimeData as Data } from '../../src/shared/runtime-data.ts'

/** The browser runtime's strings and settings for this page (a JSON data block, not a script). */
export function RuntimeData({ page }: { page: Page }) {
  const { t, site } = page
  const { gtmId, gaId, pageViewEvent } = site.analytics
  const data: Data = {
    locales: site.locales.map((l) => l.code),
    defaultLocale: site.defaultLocale,
    home: page.url('/'),
    siteName: site.name,
    text: {
      loading: t('runtime.loading'),
      offline: t('runtime.offline'),
      offlineNavigation: t('runtime.offlineNavigation'),
      errorTitle: t('runtime.errorTitle'),
      errorStatus: t('runtime.errorStatus'),
      backHome: t('nav.backHome'),
      errorFallback: t('runtime.errorFallback'),
      errorFallbackText: t('runtime.errorFallbackText'),
      errorDetails: t('runtime.errorDetails'),
      errorFallbackHome: t('runtime.errorFallbackHome'),
    },
    ...(gtmId || gaId ? { analytics: { gtmId, gaId, pageViewEvent } } : {}),
  }
  return <script type="application/json" id={RUNTIME_DATA_ID} dangerouslySetInnerHTML={{ __html: scriptJson(data) }} />
}
