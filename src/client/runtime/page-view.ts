/**
 * Page views for the tag manager and the global site tag. Do Not Track is checked here, in the
 * runtime, so that with it on the tag code is not even fetched; the tags themselves load in
 * their own chunk (analytics.ts), only on sites that configure an ID.
 */
import { splitLocale } from '../../shared/urls.ts'
import type { RuntimeData } from '../../shared/runtime-data.ts'
import type { PageView } from './page-view-event.ts'

export function doNotTrack(): boolean {
  const nav = navigator as Navigator & { msDoNotTrack?: string }
  const win = window as Window & { doNotTrack?: string }
  return nav.doNotTrack === '1' || nav.doNotTrack === 'yes' || win.doNotTrack === '1' || nav.msDoNotTrack === '1'
}

/**
 * Returns the function that reports the page on screen, or undefined when there is nothing to
 * report to (no IDs configured, or Do Not Track).
 */
export function pageViews(data: RuntimeData): (() => void) | undefined {
  const config = data.analytics
  if (!config || doNotTrack()) return undefined
  const tags = import('./analytics.ts').then((module) => module.startTags(config))
  return () => {
    // Read now: by the time the tag code has arrived the visitor may be on another page.
    const { locale, path } = splitLocale(location.pathname, data.locales, data.defaultLocale)
    const view: PageView = {
      pageType: 'PageView',
      pageUrl: location.pathname + location.search + location.hash,
      pageTitle: document.title,
      routeName: `${path.split('/').filter(Boolean).join('-') || 'index'}___${locale}`,
    }
    void tags.then((send) => send(view))
  }
}
