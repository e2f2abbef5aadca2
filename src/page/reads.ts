/**
 * What a page read of the rest of the site while it rendered. Templates reach other pages only
 * through the collections and the route table; a page renders with tracked copies of both, which
 * note each question asked ("the services in cn", "the Doc content/en/blog/x.md", "the articles
 * linking to /services/ear/"), and page.ts notes which locales' messages it used. The build cache
 * keeps a page with the fingerprints of the answers, and re-uses it while its own inputs are
 * unchanged and every question gets the same answer: a title edit re-renders the pages that show
 * that title, not the whole site. Pure.
 */
import type { Collections } from '../routes/collections.ts'
import { hashOf, oncePer } from '../util/memo.ts'
import { listingsWithFeeds } from '../routes/routes.ts'
import type { Doc, Messages, Route, RouteTable } from '../types.ts'

/** A question a page asked. Examples: 'services cn', 'doc content/en/contact.md', 'route /blog/' */
export type Read = string

/** The collections and route table as a page sees them: every question is passed to `note`. */
export function trackedView(collections: Collections, table: RouteTable, note: (read: Read) => void): { collections: Collections; table: RouteTable; feeds: () => Route[] } {
  const byLocale = (name: 'services' | 'articles' | 'doctors') => new Proxy(collections[name], {
    get: (lists, locale) => {
      if (typeof locale === 'string') note(`${name} ${locale}`)
      return lists[locale as string]
    },
    // A walk over every locale's list depends on every Doc.
    ownKeys: (lists) => { note('docs'); return Reflect.ownKeys(lists) },
  })
  return {
    collections: {
      services: byLocale('services'),
      articles: byLocale('articles'),
      doctors: byLocale('doctors'),
      byId: trackedMap(collections.byId, (id) => note(`doc ${id}`), () => note('docs')),
      linksOf: (id) => { note(`links ${id}`); return collections.linksOf(id) },
      linkedFrom: (url) => { note(`linkedFrom ${url}`); return collections.linkedFrom(url) },
      relatedArticles: (doc, limit) => { note(`related ${doc.id} ${limit}`); return collections.relatedArticles(doc, limit) },
    },
    table: {
      get routes() { note('routes'); return table.routes },
      byUrl: trackedMap(table.byUrl, (url) => note(`route ${url}`), () => note('routes')),
    },
    feeds: () => { note('feeds'); return listingsWithFeeds(table) },
  }
}

/** A read-only map that notes each key looked up, and any walk over all of it. */
function trackedMap<K, V>(map: ReadonlyMap<K, V>, noteKey: (key: K) => void, noteAll: () => void): ReadonlyMap<K, V> {
  const all = () => { noteAll(); return map }
  return {
    get: (key) => { noteKey(key); return map.get(key) },
    has: (key) => { noteKey(key); return map.has(key) },
    get size() { return all().size },
    forEach: (each, self) => all().forEach(each, self),
    entries: () => all().entries(),
    keys: () => all().keys(),
    values: () => all().values(),
    [Symbol.iterator]: () => all()[Symbol.iterator](),
  }
}

/**
 * Answers questions against one build's collections and route table, each as a short
 * fingerprint, computed once per build however many pages asked it.
 */
export function answerer(collections: Collections, table: RouteTable, messages: Record<string, Messages>): (read: Read) => string {
  const answers = new Map<Read, string>()
  const docs = (list: readonly Doc[] | undefined) => (list ?? []).map(docPrint).join(' ')
  const answer = (read: Read): string => {
    const [kind = '', ...args] = read.split(' ')
    const [first = ''] = args
    switch (kind) {
      case 'services': case 'doctors': return docs(collections[kind][first])
      case 'articles': return hashOf(docs(collections[kind][first]))
      case 'doc': { const doc = collections.byId.get(args.join(' ')); return doc ? docPrint(doc) : '-' }
      case 'docs': return hashOf(docs([...collections.byId.values()]))
      case 'links': return [...collections.linksOf(args.join(' '))].join(' ')
      case 'linkedFrom': return docs(collections.linkedFrom(args.join(' ')))
      case 'related': {
        const doc = collections.byId.get(args.slice(0, -1).join(' '))
        return doc ? docs(collections.relatedArticles(doc, Number(args.at(-1)))) : '-'
      }
      case 'route': return hashOf(JSON.stringify(table.byUrl.get(first) ?? null))
      case 'routes': return hashOf(JSON.stringify(table.routes))
      case 'feeds': return hashOf(JSON.stringify(listingsWithFeeds(table)))
      case 'messages': return hashOf(JSON.stringify(messages[first] ?? null))
      case 'languageName': return messages[first]?.['language.name'] ?? first
      default: throw new Error(`a page read ${read}, which the build cache cannot check`)
    }
  }
  return (read) => {
    let known = answers.get(read)
    if (known === undefined) answers.set(read, (known = answer(read)))
    return known
  }
}

/** What other pages can show of a Doc (its place and front matter), as a short fingerprint. */
export const docPrint = oncePer((doc: Doc) => hashOf(doc.id, doc.locale, doc.path, doc.template, JSON.stringify(doc.data)))
