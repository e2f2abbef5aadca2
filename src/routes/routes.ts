/**
 * The route table: every page the site emits, as data that can be printed, sorted and checked.
 * Pure: Docs and the site configuration in, routes and diagnostics out.
 */
import type { Collections } from './collections.ts'
import type { Place } from '../content/parse.ts'
import { problem } from '../errors.ts'
import { localeUrl, outputFileFor } from '../shared/urls.ts'
import type { Diagnostic, Doc, Route, RouteTable, SiteConfig } from '../types.ts'
import { groupBy } from '../util/group.ts'

export interface RouteOptions {
  /** A missing translation is a warning and the page is shown in the other language (the dev server). */
  translationFallback?: boolean
}

export function buildRouteTable(docs: Doc[], site: SiteConfig, collections: Collections, unreadable: Place[] = [], options: RouteOptions = {}): { table: RouteTable; diagnostics: Diagnostic[] } {
  const missing = missingTranslations(docs, site, unreadable)
  const severity = options.translationFallback ? 'warning' : 'error'
  const diagnostics = [...misplaced(docs, site), ...missing.map((m) => problem('MissingTranslation', [translationFile(m.source, m.locale)], { file: m.source.id }, severity))]
  // A stand-in for each missing translation: the same Doc, placed in the locale that lacks it.
  const standIns = new Set(options.translationFallback ? missing.map((m) => ({ ...m.source, locale: m.locale })) : [])
  const pages = [...docs, ...standIns]
  const byPath = groupBy(pages, (d) => d.path)
  const routes: Route[] = pages.flatMap((doc) => {
    const siblings = byPath.get(doc.path) ?? []
    const alternates = Object.fromEntries(siblings.map((d) => [d.locale, url(d.locale, d.path, site)]))
    const route = pageRoute(doc, alternates, site, standIns.has(doc) ? siblings.find((d) => d.id === doc.id && !standIns.has(d))?.locale : undefined)
    return doc.template === 'blog-index' ? paginate(route, collections.articles[doc.locale] ?? [], site.blog.pageSize, site) : [route]
  })
  for (const locale of site.locales) {
    const u = localeUrl(locale.code, '/404.html', site.defaultLocale)
    routes.push({ url: u, locale: locale.code, path: '/404.html', template: 'not-found', alternates: { [locale.code]: u }, status: 404, output: outputFileFor(u) })
  }
  const { byUrl, collisions } = indexByUrl(routes)
  diagnostics.push(...collisions)
  routes.sort((a, b) => a.url.localeCompare(b.url))
  return { table: { routes, byUrl }, diagnostics }
}

const url = (locale: string, path: string, site: SiteConfig) => localeUrl(locale, path, site.defaultLocale)

function pageRoute(doc: Doc, alternates: Record<string, string>, site: SiteConfig, contentLocale?: string): Route {
  const u = url(doc.locale, doc.path, site)
  const preview = { ...(doc.data.draft ? { draft: true } : {}), ...(contentLocale ? { contentLocale } : {}) }
  return { url: u, locale: doc.locale, path: doc.path, template: doc.template, docId: doc.id, alternates, status: 200, output: outputFileFor(u), ...preview }
}

/**
 * A listing split into pages: the first at the index's own URL, the rest at `page/<n>/` below it.
 *   /blog/  /blog/page/2/  /blog/page/3/
 */
function paginate(first: Route, items: Doc[], size: number, site: SiteConfig): Route[] {
  const count = Math.max(1, Math.ceil(items.length / size))
  return Array.from({ length: count }, (_, i) => {
    const number = i + 1
    const page = { number, count, items: items.slice(i * size, number * size).map((d) => d.id) }
    if (number === 1) return { ...first, page }
    const path = `${first.path}page/${number}/`
    const u = url(first.locale, path, site)
    return { ...first, url: u, path, alternates: { [first.locale]: u }, output: outputFileFor(u), page }
  })
}

function indexByUrl(routes: Route[]): { byUrl: Map<string, Route>; collisions: Diagnostic[] } {
  const byUrl = new Map<string, Route>()
  const collisions: Diagnostic[] = []
  for (const [u, same] of groupBy(routes, (r) => r.url)) {
    byUrl.set(u, same[0]!)
    if (same.length > 1) {
      const files = same.map((r) => r.docId ?? '(generated)')
      collisions.push(problem('DuplicateUrl', [u, files.join(' and ')], { file: files[1] }))
    }
  }
  return { byUrl, collisions }
}

/** Locales a path must exist in: one for single-locale sections (the blog), otherwise all. */
function expectedLocales(path: string, site: SiteConfig): string[] {
  const section = path.split('/')[1] ?? ''
  const only = site.singleLocaleSections[section]
  return only ? [only] : site.locales.map((l) => l.code)
}

function missingTranslations(docs: Doc[], site: SiteConfig, unreadable: Place[]): { source: Doc; locale: string }[] {
  const found: { source: Doc; locale: string }[] = []
  const failed = groupBy(unreadable, (p) => p.path)
  for (const [path, siblings] of groupBy(docs, (d) => d.path)) {
    const present = new Set([...siblings, ...(failed.get(path) ?? [])].map((d) => d.locale))
    for (const locale of expectedLocales(path, site)) {
      if (present.has(locale)) continue
      found.push({ source: siblings[0]!, locale })
    }
  }
  return found
}

function misplaced(docs: Doc[], site: SiteConfig): Diagnostic[] {
  return docs.flatMap((doc) => {
    const section = doc.path.split('/')[1] ?? ''
    const only = site.singleLocaleSections[section]
    return only && only !== doc.locale ? [problem('SingleLocaleSection', [section, only], { file: doc.id })] : []
  })
}

/** content/en/services/ear.md in locale cn -> content/cn/services/ear.md */
function translationFile(doc: Doc, locale: string): string {
  return doc.id.replace(/^content\/[^/]+\//, `content/${locale}/`)
}

const listings = new WeakMap<RouteTable, Route[]>()

/** The first page of every article listing: each has a feed. */
export function listingsWithFeeds(table: RouteTable): Route[] {
  if (!listings.has(table)) listings.set(table, table.routes.filter((r) => r.template === 'blog-index' && (r.page?.number ?? 1) === 1))
  return listings.get(table)!
}
