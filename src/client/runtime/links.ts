/** Which clicks the runtime answers itself; every other click stays the browser's. */

/** The path and query of a URL: what tells two pages apart (the hash only scrolls). */
export const pageKey = (url: URL | Location): string => url.pathname + url.search

/**
 * The URL to open in place for this click, or undefined to leave the click to the browser:
 * modified and non-left clicks, other targets, downloads, the language switcher (a full load,
 * see language.ts), links marked `data-reload`, other origins (mailto:, tel: included), files
 * other than HTML, and anchors on the page on screen (the browser scrolls to them).
 */
export function linkToOpen(event: MouseEvent): URL | undefined {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null
  if (!(link instanceof HTMLAnchorElement)) return
  if ((link.target && link.target !== '_self') || link.hasAttribute('download') || link.hasAttribute('data-locale') || link.hasAttribute('data-reload')) return
  const url = new URL(link.href)
  if (url.origin !== location.origin) return
  if (/\.\w+$/.test(url.pathname) && !/\.html?$/.test(url.pathname)) return
  if (link.href.includes('#') && pageKey(url) === pageKey(location)) return
  return url
}
