import type { Page } from '../../src/page.ts'
import { feedUrl, listingsWithFeeds } from '../../src/seo/feed.ts'
import { openGraphImage } from '../../src/seo/open-graph.ts'
import { jsonLdScript, structuredData } from '../../src/seo/structured-data.ts'

/** What search engines and social networks read: the sharing image, the feed, and JSON-LD. */
export function SearchMeta({ page }: { page: Page }) {
  const image = openGraphImage(page.route)
  const graph = structuredData(page)
  const feeds = listingsWithFeeds(page.table).filter((l) => l.locale === page.route.locale)
  return (
    <>
      <meta property="og:image" content={page.site.baseUrl + image.url} />
      <meta property="og:image:width" content={String(image.width)} />
      <meta property="og:image:height" content={String(image.height)} />
      <meta property="og:image:alt" content={page.t('share.imageAlt', { name: page.site.name })} />
      <meta name="twitter:card" content="summary_large_image" />
      {feeds.map((l) => (
        <link key={l.url} rel="alternate" type="application/atom+xml" href={feedUrl(l.url)} title={`${page.collections.byId.get(l.docId!)?.data.title} | ${page.site.name}`} />
      ))}
      {/* The JSON is escaped so that no value can close the element (see jsonLdScript). */}
      {graph.length > 0 && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdScript(graph) }} />}
    </>
  )
}
