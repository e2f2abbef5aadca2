/**
 * A page as the site will show it, rendered in the browser by the site's own templates
 * (src/render/render.tsx) from the rest of the site as last built (admin/preview.json, the build's
 * RenderInput) with the edited page, its body read (preview-body.ts), put in place of its saved
 * version. Pure.
 */
import type { Root } from 'mdast'
import { factsOf } from '../markdown/body.ts'
import { renderRoute } from '../render/render.tsx'
import type { RenderInput } from '../render/renderer.ts'
import { internalLinks } from '../routes/links.ts'
import { collect } from '../routes/collections.ts'
import { buildRouteTable } from '../routes/routes.ts'
import type { Doc } from '../types.ts'

export interface RenderedPreview {
  /** The page's <body> markup, and its language. */
  body: string
  lang: string
}

/** `tree`: the edited body as read, empty when it was refused. */
export function renderPreview(doc: Doc, site: RenderInput, tree: Root): RenderedPreview | undefined {
  const docs = [...site.docs.filter((d) => d.id !== doc.id), doc]
  const links = new Map<string, readonly string[]>([...site.links.filter(([id]) => id !== doc.id), [doc.id, internalLinks(factsOf(doc, tree))]])
  const locales = site.site.locales.map((l) => l.code)
  const collections = collect(docs, locales, links)
  // A page whose translation is not written yet is shown all the same, as `clinic-build dev` does.
  const { table } = buildRouteTable(docs, site.site, collections, [], { translationFallback: true })
  const route = table.routes.find((r) => r.docId === doc.id && r.locale === doc.locale)
  if (!route) return undefined
  const empty: Root = { type: 'root', children: [] }
  const page = renderRoute(route, {
    site: site.site, messages: site.messages, table, collections, assets: site.assets, images: site.images,
    bodyOf: (d) => (d.id === doc.id ? tree : empty),
    onMissingMessage: () => {},
  })
  const html = String(page.contents)
  return {
    body: /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html,
    lang: /<html[^>]*\blang="([^"]*)"/.exec(html)?.[1] ?? doc.locale,
  }
}
