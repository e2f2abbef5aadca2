/** Lists that templates show (services, articles, doctors), computed once per build. Pure. */
import type { Doc } from '../types.ts'

export interface Collections {
  /** Service pages per locale, by `order` then title. */
  services: Record<string, Doc[]>
  /** Articles per locale, newest first. */
  articles: Record<string, Doc[]>
  /** Doctor profiles per locale, by path. */
  doctors: Record<string, Doc[]>
  byId: ReadonlyMap<string, Doc>
  /** Root-relative paths a Doc links to. Example: Set { '/services/rhinoplasty/' } */
  linksOf: (id: string) => ReadonlySet<string>
  /** Articles that link to a URL, newest first. */
  linkedFrom: (url: string) => Doc[]
  /** Articles sharing a tag with the given one, newest first, at most `limit`. */
  relatedArticles: (doc: Doc, limit: number) => Doc[]
}

/** `links`: the internal links of each Doc's body, by Doc id (src/routes/links.ts internalLinks). */
export function collect(docs: Doc[], locales: string[], links: ReadonlyMap<string, readonly string[]> = new Map()): Collections {
  const of = (template: Doc['template'], order: (a: Doc, b: Doc) => number) =>
    Object.fromEntries(locales.map((l) => [l, docs.filter((d) => d.locale === l && d.template === template).sort(order)]))
  const articles = of('article', (a, b) => (b.data.date ?? '').localeCompare(a.data.date ?? '') || a.path.localeCompare(b.path))
  const linkSets = new Map(docs.map((d) => [d.id, new Set(links.get(d.id))]))
  const backlinks = new Map<string, Doc[]>()
  const byTag = new Map<string, Doc[]>()
  for (const article of Object.values(articles).flat()) {
    for (const url of linkSets.get(article.id)!) push(backlinks, url, article)
    for (const tag of article.data.tags ?? []) push(byTag, `${article.locale} ${tag}`, article)
  }
  return {
    services: of('service', (a, b) => (a.data.order ?? 99) - (b.data.order ?? 99) || a.path.localeCompare(b.path)),
    articles,
    doctors: of('doctor', (a, b) => a.path.localeCompare(b.path)),
    byId: new Map(docs.map((d) => [d.id, d])),
    linksOf: (id) => linkSets.get(id) ?? new Set(),
    linkedFrom: (url) => backlinks.get(url) ?? [],
    relatedArticles: (doc, limit) => {
      const related = new Set<Doc>()
      for (const tag of doc.data.tags ?? []) {
        for (const other of byTag.get(`${doc.locale} ${tag}`) ?? []) {
          if (related.size >= limit) return [...related]
          if (other !== doc) related.add(other)
        }
      }
      return [...related]
    },
  }
}

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key)
  if (list) list.push(item)
  else map.set(key, [item])
}
