import type { Page } from '../../src/page/index.ts'

/**
 * Google Tag Manager's frame for visitors without JavaScript, first in <body>, only when a
 * container ID is configured. With JavaScript the runtime loads the tags (src/client/runtime/analytics.ts).
 */
export function AnalyticsNoscript({ page }: { page: Page }) {
  const { gtmId } = page.site.analytics
  if (!gtmId) return null
  return (
    <noscript>
      <iframe src={`https://www.googletagmanager.com/ns.html?id=${encodeURIComponent(gtmId)}`} width="0" height="0" hidden title="Google Tag Manager" />
    </noscript>
  )
}
