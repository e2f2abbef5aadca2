/**
 * An Atom feed of each article listing (the blog), at `<listing>/feed.xml`: its newest articles,
 * newest first. Pure.
 */
import type { Collections } from '../routes/collections.ts'
import { listingsWithFeeds } from '../routes/routes.ts'
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'

/**
 * Articles in a feed. Feed readers fetch it again and again for what is new: with every article
 * it was 2.3 MB at 4,000 articles, and each build made, hashed and wrote it whole. The sitemap and
 * the listing's pages name every article.
 */
export const FEED_ENTRIES = 50

/** Where the feed of a listing is. Example: '/blog/' -> '/blog/feed.xml' */
export const feedUrl = (listingUrl: string) => `${listingUrl}feed.xml`

export function feeds(table: RouteTable, collections: Collections, site: SiteConfig): OutputFile[] {
  return listingsWithFeeds(table).map((listing) => {
    const abs = (url: string) => site.baseUrl + url
    const articles = collections.articles[listing.locale] ?? []
    const index = collections.byId.get(listing.docId!)
    const title = `${index?.data.title ?? ''} | ${site.name}`
    const doctorName = (slug?: string) => collections.doctors[listing.locale]?.find((d) => d.path === `/${slug}/`)?.data.title
    const updated = (d: { data: { date?: string; reviewedOn?: string } }) => [d.data.date ?? '', d.data.reviewedOn ?? ''].sort().at(-1)!
    const urlOf = new Map(table.routes.map((r) => [r.docId, r.url]))
    const entries = articles.slice(0, FEED_ENTRIES).map((a) => `<entry>
<title>${escapeXml(a.data.title)}</title>
<link rel="alternate" type="text/html" href="${escapeXml(abs(urlOf.get(a.id)!))}"/>
<id>${escapeXml(abs(urlOf.get(a.id)!))}</id>
<published>${a.data.date}T00:00:00Z</published>
<updated>${updated(a)}T00:00:00Z</updated>
<author><name>${escapeXml(doctorName(a.data.author) ?? site.name)}</name></author>
<summary>${escapeXml(a.data.description)}</summary>
${(a.data.tags ?? []).map((t) => `<category term="${escapeXml(t)}"/>`).join('')}
</entry>`)
    const newest = articles.map(updated).sort().at(-1) ?? '1970-01-01'
    const lang = site.locales.find((l) => l.code === listing.locale)?.lang ?? listing.locale
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(lang)}">
<title>${escapeXml(title)}</title>
<subtitle>${escapeXml(index?.data.description ?? '')}</subtitle>
<link rel="self" type="application/atom+xml" href="${escapeXml(abs(feedUrl(listing.url)))}"/>
<link rel="alternate" type="text/html" href="${escapeXml(abs(listing.url))}"/>
<id>${escapeXml(abs(feedUrl(listing.url)))}</id>
<updated>${newest}T00:00:00Z</updated>
<author><name>${escapeXml(site.name)}</name></author>
${entries.join('\n')}
</feed>
`
    return { path: feedUrl(listing.url).slice(1), contents: xml }
  })
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
