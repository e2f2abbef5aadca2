/** The files that describe the site to search engines and social networks, beside its pages. */
import { compute, type Remember } from '../memo.ts'
import type { KeptFiles } from '../kept-files.ts'
import type { Collections } from '../collections.ts'
import type { Messages, OutputFile, RouteTable, SiteConfig } from '../types.ts'
import type { Read } from '../reads.ts'
import { feeds } from './feed.ts'
import { openGraphImages } from './open-graph.ts'

/** The blog's Atom feed and the Open Graph images (sitemap.xml and robots.txt come from src/sitemap.ts). */
/**
 * `remember` and `answer` (src/reads.ts) let the dev server skip the feeds while no page's place or
 * front matter changed; `kept` keeps the images' drawings between builds.
 */
export async function searchFiles(table: RouteTable, collections: Collections, site: SiteConfig, messages: Record<string, Messages>, remember: Remember = compute, answer?: (read: Read) => string, kept?: KeptFiles): Promise<OutputFile[]> {
  const atom = answer ? remember('feeds', [site, answer('feeds'), answer('docs')], () => feeds(table, collections, site)) : feeds(table, collections, site)
  return [...atom, ...(await openGraphImages(table, site, messages, remember, kept))]
}
