/**
 * Inline in <head> of every page, so it works even when the runtime script itself fails: when one
 * of our own scripts (same origin) fails to load and the page is still shown 2 s later, or the
 * runtime has not started within 120 s, or an island's chunk has not arrived within 120 s (the
 * `chunk-timeout` event), reload the page, at most once per 60 s per browser session. A second
 * failure inside that window leaves the page as it is: the server-rendered HTML works without
 * scripts.
 * The runtime marks itself started with `data-runtime` on <html>.
 *
 * It also adds the `js` class to <html> before the first paint, so the styles of the scripted
 * page (the folded mobile menu, the floating back-to-top button) apply from the start and nothing
 * moves when the runtime arrives; when it gives up, the class goes and the plain page returns.
 */
const KEY = 'chunk-reload'
const root = document.documentElement
root.classList.add('js')

function recover(): void {
  try {
    const now = Date.now()
    if (!(now - Number(sessionStorage.getItem(KEY)) < 60000)) {
      sessionStorage.setItem(KEY, String(now))
      location.reload()
      return
    }
  } catch {
    // No sessionStorage (privacy settings): never risk a reload loop.
  }
  root.setAttribute('data-chunk-failed', '')
  root.classList.remove('js')
}

// A load the browser cancels because the visitor is leaving the page fails just as a missing file
// does (WebKit cancels them as soon as the next page is asked for), and a reload then would take
// the visitor back. So a failed load recovers a moment later, unless the page has gone by then.
let failedLoad: ReturnType<typeof setTimeout> | undefined
function recoverUnlessLeaving(): void {
  if (failedLoad === undefined) failedLoad = setTimeout(recover, 2000)
}
addEventListener('pagehide', () => {
  clearTimeout(failedLoad)
  failedLoad = undefined
})
// Script load errors do not bubble: listen in the capture phase.
addEventListener('error', (event) => {
  const script = event.target
  if (script instanceof HTMLScriptElement && script.src.indexOf(location.origin + '/') === 0) recoverUnlessLeaving()
}, true)
// A failed import() of a code-split chunk rejects; the browsers word it in these ways.
addEventListener('unhandledrejection', (event) => {
  if (/dynamically imported module|module script failed/i.test(String(event.reason && event.reason.message))) recoverUnlessLeaving()
})
setTimeout(() => {
  if (!root.hasAttribute('data-runtime')) recover()
}, 120000)
// The runtime's own time-out for an island's chunk (src/client/islands.ts).
addEventListener('chunk-timeout', recover)

export {}
