import type { Page } from '../../src/page/index.ts'
import { feedUrl } from '../../src/seo/feed.ts'
import { openGraphImage } from '../../src/seo/open-graph.ts'
import { jsonLdScript, structuredData } from '../../src/seo/structured-data.ts'

/** In <head>: the sharing image and the feed, for social networks and feed readers. */
export function SearchMeta({ page }: { page: Page }) {
  const image = openGraphImage(page.route)
  const feeds = page.feeds().filter((l) => l.locale === page.route.locale)
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
    </>
  )
}

/**
 * At the end of <body>: the page described for search engines, as JSON-LD. In the body it is
 * swapped with the page's content when the runtime opens pages in place.
 */
export function StructuredData({ page }: { page: Page }) {
  const graph = structuredData(page)
  // The JSON is escaped so that no value can close the element (see jsonLdScript).
  return graph.length > 0 ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdScript(graph) }} /> : null
}
