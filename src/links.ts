/**
 * Internal links in Markdown must lead to a page the build emits or to a static file, and images
 * to a file under static/ whose size the build knows, so the <img> can reserve its box. Pure.
 */
import { problem } from './errors.ts'
import type { BodyFacts, Diagnostic, Doc, RouteTable } from './types.ts'

const ORIGIN = 'http://site.invalid'
/** Files the image pipeline (src/images.ts) reads the width and height of. */
const SIZED = /\.(jpe?g|png|webp|gif|svg)$/i

/** `alsoKnown`: URLs of pages whose file failed to parse; their errors are reported already. */
export function checkLinks(docs: Doc[], facts: ReadonlyMap<string, BodyFacts>, table: RouteTable, staticFiles: string[], alsoKnown: string[] = []): Diagnostic[] {
  const check = linkChecker(table, staticFiles, alsoKnown)
  return docs.flatMap((doc) => check(doc, facts.get(doc.id)))
}

/**
 * The checks of one site's links, body by body; a body's findings are kept with its facts, so a
 * rebuild against the same routes and static files checks only the bodies that changed.
 */
export function linkChecker(table: RouteTable, staticFiles: string[], alsoKnown: string[] = []): (doc: Doc, facts: BodyFacts | undefined) => Diagnostic[] {
  const statics = new Set(staticFiles.map((f) => `/${f}`))
  const known = new Set([...statics, ...alsoKnown])
  const urlOf = new Map(table.routes.map((r) => [r.docId, r.url]))
  const checked = new WeakMap<BodyFacts, Diagnostic[]>()
  const check = (doc: Doc, facts: BodyFacts): Diagnostic[] => {
    const found: Diagnostic[] = []
    const from = urlOf.get(doc.id) ?? '/'
    for (const link of facts.links) {
      const target = internalPath(link.url, from)
      if (target === undefined || table.byUrl.has(target) || known.has(target)) continue
      found.push(problem('BrokenLink', [link.url], { file: doc.id, line: link.line, column: link.column }))
    }
    for (const image of facts.images) {
      const at = { file: doc.id, line: image.line, column: image.column }
      const target = internalPath(image.url, from)
      if (target !== undefined && !statics.has(target)) {
        found.push(problem('MissingImage', [image.url], at))
        continue
      }
      // data: and other schemes are the sanitiser's (UnsafeMarkup); the rest cannot be sized.
      const unsized = target === undefined ? (/^(https?:)?\/\//i.test(image.url) ? 'is on another site, not under static/' : undefined)
        : !image.url.startsWith('/') ? 'is written relative to the page, not from the site root'
        : !SIZED.test(target) ? 'is not a JPEG, PNG, WebP, GIF or SVG file'
        : undefined
      if (unsized) found.push(problem('UnsizedImage', [image.url, unsized], at, 'warning'))
    }
    return found
  }
  return (doc, facts) => {
    if (!facts) return []
    let found = checked.get(facts)
    if (!found) checked.set(facts, (found = check(doc, facts)))
    return found
  }
}

/**
 * The site path a link points to, or undefined for links that leave the site or stay on the page.
 *   '/services/ear/#risks' -> '/services/ear/'    'mailto:a@b.sg' -> undefined    '#faq' -> undefined
 */
function internalPath(href: string, from: string): string | undefined {
  if (href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined
  // Most links are plain site paths ('/services/ear/#risks'): no need for a URL parser.
  if (/^\/[\w\-/]*(?:[?#].*)?$/.test(href)) return href.replace(/[?#].*$/, '')
  const resolved = new URL(href, ORIGIN + from)
  return decodeURI(resolved.pathname)
}
