/** The files that describe the site to search engines and social networks, beside its pages. */
import type { Collections } from '../collections.ts'
import type { Messages, OutputFile, RouteTable, SiteConfig } from '../types.ts'
import { feeds } from './feed.ts'
import { openGraphImages } from './open-graph.ts'

/** The blog's Atom feed and the Open Graph images (sitemap.xml and robots.txt come from src/sitemap.ts). */
export async function searchFiles(table: RouteTable, collections: Collections, site: SiteConfig, messages: Record<string, Messages>): Promise<OutputFile[]> {
  return [...feeds(table, collections, site), ...(await openGraphImages(table, site, messages))]
}
