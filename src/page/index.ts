/** What a template receives: the route, its document and helpers bound to the page's locale. */
import type { Root } from 'mdast'
import type { ReactNode } from 'react'
import type { Collections } from '../routes/collections.ts'
import { renderMarkdown, splitSections, type Section } from '../markdown/to-react.ts'
import { translator } from '../content/messages.ts'
import { trackedView, type Read } from './reads.ts'
import { imageUrl, type ImageSet } from '../assets/picture.ts'
import { localeUrl } from '../shared/urls.ts'
import type { Assets, Doc, LocaleConfig, Messages, Route, RouteTable, SiteConfig } from '../types.ts'

/** Everything shared by all pages of one build. */
export interface RenderContext {
  site: SiteConfig
  messages: Record<string, Messages>
  table: RouteTable
  collections: Collections
  assets: Assets
  /** Processed images by their URL (static/ and content/ images, src/assets/images.ts). */
  images: Record<string, ImageSet>
  /** The syntax tree of a Doc's body. */
  bodyOf: (doc: Doc) => Root
  /** Called when a template asks for a message no locale defines. */
  onMissingMessage: (key: string, route: Route) => void
  /** Told what each page reads of the collections and the route table (src/page/reads.ts). */
  onRead?: (read: Read) => void
}

export interface Page {
  route: Route
  /** The document this page renders (absent on generated pages such as the 404). */
  doc?: Doc
  site: SiteConfig
  locale: LocaleConfig
  collections: Collections
  table: RouteTable
  /** The first page of each article listing, whose feeds every page links to. */
  feeds: () => Route[]
  assets: Assets
  /** The page's message in its locale, `{name}` placeholders filled from `vars`. */
  t: (key: string, vars?: Record<string, string | number>) => string
  /** A site path in this page's locale (or another): page.url('/contact/') -> '/cn/contact/' */
  url: (path: string, locale?: string) => string
  /** The whole Markdown body, or the given nodes of it, as React elements. */
  markdown: (nodes?: Section['nodes']) => ReactNode
  /** The body split at its `##` headings. */
  sections: () => { lead: Section['nodes']; sections: Section[] }
  /** A date (YYYY-MM-DD) written the locale's way: '15 October 2026', '2026年10月15日'. */
  date: (iso: string) => string
  /** Items joined the locale's way: 'English, Mandarin and Hokkien', '英语、华语和福建话'. */
  list: (items: string[]) => string
  /** The profile Doc of a doctor in this page's locale. */
  doctor: (slug: string) => Doc | undefined
  /** The page's hero image from its front matter (`image`, `imageAlt`), when it has one. */
  hero: () => { set: ImageSet; alt: string } | undefined
  /** A language's name in that language, for the switcher: 'English', '中文'. */
  languageName: (code: string) => string
}

export function createPage(route: Route, ctx: RenderContext): Page {
  const { site } = ctx
  const note = ctx.onRead ?? (() => {})
  const { collections, table, feeds } = trackedView(ctx.collections, ctx.table, note)
  note(`messages ${route.locale}`)
  const locale = site.locales.find((l) => l.code === route.locale)!
  const doc = route.docId ? collections.byId.get(route.docId) : undefined
  const dates = dateFormat(locale.messages)
  return {
    route, doc, site, locale, collections, table, feeds, assets: ctx.assets,
    t: translator(ctx.messages[route.locale] ?? {}, (key) => ctx.onMissingMessage(key, route)),
    url: (path, code = route.locale) => localeUrl(code, path, site.defaultLocale),
    markdown: (nodes) => renderMarkdown(nodes ?? (doc ? ctx.bodyOf(doc).children : []), ctx.images, doc?.id),
    sections: () => (doc ? splitSections(ctx.bodyOf(doc)) : { lead: [], sections: [] }),
    date: (iso) => dates.format(new Date(`${iso}T00:00:00Z`)),
    list: (items) => listFormat(locale.messages).format(items),
    doctor: (slug) => collections.doctors[route.locale]?.find((d) => d.path === `/${slug}/`),
    hero: () => {
      const set = doc?.data.image ? ctx.images[imageUrl(doc.data.image, doc.id) ?? ''] : undefined
      return set && { set, alt: doc!.data.imageAlt ?? '' }
    },
    languageName: (code) => { note(`languageName ${code}`); return ctx.messages[code]?.['language.name'] ?? code },
  }
}

// Creating an Intl formatter costs more than rendering a small page: one per kind and locale is enough.
function perLocale<F>(make: (tag: string) => F): (tag: string) => F {
  const made = new Map<string, F>()
  return (tag) => {
    let format = made.get(tag)
    if (!format) made.set(tag, (format = make(tag)))
    return format
  }
}
const dateFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }))
const listFormat = perLocale((tag) => new Intl.ListFormat(tag, { type: 'conjunction' }))
