/** The files that describe the site to search engines and social networks, beside its pages. */
import { compute, type Remember } from '../util/memo.ts'
import type { KeptFiles } from '../util/kept-files.ts'
import type { Collections } from '../routes/collections.ts'
import type { Messages, OutputFile, RouteTable, SiteConfig } from '../types.ts'
import type { Read } from '../page/reads.ts'
import { feeds } from './feed.ts'
import { openGraphImages } from './open-graph.ts'

/** The blog's Atom feed and the Open Graph images (sitemap.xml and robots.txt come from src/routes/sitemap.ts). */
/**
 * `remember` and `answer` (src/page/reads.ts) let the dev server skip the feeds while no page's place or
 * front matter changed; `kept` keeps the images' drawings between builds.
 */
export async function searchFiles(table: RouteTable, collections: Collections, site: SiteConfig, messages: Record<string, Messages>, remember: Remember = compute, answer?: (read: Read) => string, kept?: KeptFiles): Promise<OutputFile[]> {
  const atom = answer ? remember('feeds', [site, answer('feeds'), answer('docs')], () => feeds(table, collections, site)) : feeds(table, collections, site)
  return [...atom, ...(await openGraphImages(table, site, messages, remember, kept))]
}
