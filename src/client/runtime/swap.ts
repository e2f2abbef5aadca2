/**
 * Puts a fetched page in place of the one on screen: the <html> attributes (lang, locale), the
 * page's head tags (title, description, canonical, hreflang, Open Graph) and the body, except
 * the runtime's own elements (marked data-persist: loading bar, notices, live region).
 * Scripts and stylesheets are never touched: a page with others comes from another deploy and
 * is loaded in full instead (see `canSwap`).
 */
import { RUNTIME_DATA_ID } from '../../shared/runtime-data.ts'

// Structured data (JSON-LD) describes the page, so it is swapped with it; it is not code.
const DATA = 'script[type="application/ld+json"], script[type="application/json"]'
const PAGE_HEAD = `title, meta, link:not([rel=stylesheet]), ${DATA}`
const ASSETS = 'script:not([type="application/ld+json"]):not([type="application/json"]), link[rel=stylesheet]'

// Compared by address: the runtime changes attributes on screen (the web fonts' media). A fetched
// document is parsed without scripting, so <noscript> content (the web fonts' fallback link) is
// live there but only text on screen: leave it out.
const assetsOf = (doc: Document) => [...doc.head.querySelectorAll(ASSETS)].filter((e) => !e.closest('noscript'))
  .map((e) => `${e.tagName} ${e.getAttribute('src') ?? e.getAttribute('href') ?? e.textContent}`).sort().join('\n')

/** The scripts and styles the document came with, before any tag manager added its own. */
const ownAssets = assetsOf(document)

export function parseHtml(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html')
}

/** Whether a fetched document is one of our pages, built with the scripts and styles on screen. */
export function canSwap(doc: Document): boolean {
  return Boolean(doc.querySelector('main') && doc.getElementById(RUNTIME_DATA_ID)) && assetsOf(doc) === ownAssets
}

export function swapDocument(doc: Document): void {
  // <noscript> content is parsed as live markup in a fetched document (the GTM frame would load).
  for (const element of doc.querySelectorAll('noscript')) element.remove()
  for (const { name, value } of doc.documentElement.attributes) document.documentElement.setAttribute(name, value)

  const incoming = new Map([...doc.head.querySelectorAll(PAGE_HEAD)].map((e) => [e.outerHTML, e]))
  for (const element of document.head.querySelectorAll(PAGE_HEAD)) {
    if (!incoming.delete(element.outerHTML)) element.remove()
  }
  document.head.append(...incoming.values())

  for (const node of [...document.body.childNodes]) {
    if (!(node instanceof Element && node.hasAttribute('data-persist'))) node.remove()
  }
  document.body.prepend(...doc.body.childNodes)
}
