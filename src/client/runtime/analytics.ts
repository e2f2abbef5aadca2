/**
 * Google Tag Manager and the Google global site tag (gtag.js), loaded asynchronously. Only ever
 * imported when an ID is configured and Do Not Track is off (page-view.ts). Every gtag hit
 * carries IP anonymisation, and the automatic page view is off: page-view.ts sends exactly one
 * per page shown.
 */
import type { RuntimeData } from '../../shared/runtime-data.ts'
import type { PageView } from './page-view-event.ts'

type Config = NonNullable<RuntimeData['analytics']>
type Gtag = (...args: unknown[]) => void

function loadScript(src: string): void {
  const script = document.createElement('script')
  script.async = true
  script.src = src
  document.head.append(script)
}

export function startTags(config: Config): (view: PageView) => void {
  const w = window as Window & { dataLayer?: unknown[]; gtag?: Gtag }
  const dataLayer = (w.dataLayer ??= [])
  if (config.gtmId) {
    dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' })
    loadScript(`https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(config.gtmId)}`)
  }
  let gtag: Gtag | undefined
  if (config.gaId) {
    // gtag.js expects the arguments object itself in the dataLayer.
    gtag = w.gtag = function () { dataLayer.push(arguments) }
    gtag('js', new Date())
    gtag('set', { anonymize_ip: true })
    gtag('config', config.gaId, { anonymize_ip: true, send_page_view: false })
    loadScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(config.gaId)}`)
  }
  return (view) => {
    dataLayer.push({ event: config.pageViewEvent, ...view })
    gtag?.('event', 'page_view', {
      send_to: config.gaId,
      page_title: view.pageTitle,
      page_location: location.origin + view.pageUrl,
      page_path: view.pageUrl,
      anonymize_ip: true,
    })
  }
}
