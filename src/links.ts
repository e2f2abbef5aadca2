/** Internal links in Markdown must lead to a page the build emits or to a static file. Pure. */
import { problem } from './errors.ts'
import type { BodyFacts, Diagnostic, Doc, RouteTable } from './types.ts'

const ORIGIN = 'http://site.invalid'

/** `alsoKnown`: URLs of pages whose file failed to parse; their errors are reported already. */
export function checkLinks(docs: Doc[], facts: ReadonlyMap<string, BodyFacts>, table: RouteTable, staticFiles: string[], alsoKnown: string[] = []): Diagnostic[] {
  const known = new Set([...staticFiles.map((f) => `/${f}`), ...alsoKnown])
  const urlOf = new Map(table.routes.map((r) => [r.docId, r.url]))
  const found: Diagnostic[] = []
  for (const doc of docs) {
    const from = urlOf.get(doc.id) ?? '/'
    for (const link of facts.get(doc.id)?.links ?? []) {
      const target = internalPath(link.url, from)
      if (target === undefined || table.byUrl.has(target) || known.has(target)) continue
      found.push(problem('BrokenLink', [link.url], { file: doc.id, line: link.line, column: link.column }))
    }
  }
  return found
}

/**
 * The site path a link points to, or undefined for links that leave the site or stay on the page.
 *   '/services/ear/#risks' -> '/services/ear/'    'mailto:a@b.sg' -> undefined    '#faq' -> undefined
 */
function internalPath(href: string, from: string): string | undefined {
  if (href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined
  const resolved = new URL(href, ORIGIN + from)
  return decodeURI(resolved.pathname)
}
