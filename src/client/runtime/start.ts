/** Starts the browser runtime on a server-rendered page: wires the modules of this folder together. */
import { announcer } from './announce.ts'
import { watchConnection } from './connection.ts'
import { readData } from './data.ts'
import { rememberLanguage, watchLanguageSwitcher } from './language.ts'
import { loadingBar } from './loading-bar.ts'
import { startNavigation } from './navigation.ts'
import { pageViews } from './page-view.ts'
import { manageScroll } from './scroll.ts'

/**
 * `enhance` starts the enhancements of the page on screen (islands, menu) and returns their
 * teardown; it runs on the first page and again after every navigation.
 */
export function startRuntime(enhance: () => () => void): void {
  // Tells the inline script guard (src/client/runtime/inline/chunk-guard.ts) that we arrived.
  document.documentElement.setAttribute('data-runtime', '')
  rememberLanguage()
  watchLanguageSwitcher()
  let teardown = enhance()
  const data = readData()
  if (!data) return // not one of our pages: enhancements only
  const connection = watchConnection()
  const announce = announcer()
  const pageView = pageViews(data)
  pageView?.()
  manageScroll()
  startNavigation({
    bar: loadingBar(data.text.loading),
    offline: connection.navigationFailed,
    replaceContent(change) {
      teardown()
      change()
      teardown = enhance()
      rememberLanguage()
      connection.refresh()
    },
    shown() {
      announce(document.title)
      pageView?.()
    },
  })
}
