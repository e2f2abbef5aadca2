/**
 * linkinator's runs over the built folder, which answers at `siteUrl` (folder-fetch.ts): every
 * page to judge is a start, the pages, files and images they name are fetched, not crawled. Plain
 * data out, so the runs can happen on a thread of their own (served.ts).
 */
import { LinkChecker, LinkState, type LinkResult } from 'linkinator'
import { escapeRegExp } from '../util/regexp.ts'

export interface LinkRun {
  /** The URL paths of the pages to judge. Example: '/cn/contact/' */
  starts: string[]
  /** The URL paths of every built page. */
  pages: string[]
  baseUrl: string
  /** Pages per linkinator run. */
  batch: number
}

/** A link and its state; the site's own URLs as paths on it. Example: { url: '/gone/', parent: '/cn/', state: 'BROKEN', status: 404 } */
export type FoundLink = Pick<LinkResult, 'url' | 'status' | 'parent'> & { state: `${LinkState}` }

export async function runLinkinator(siteUrl: string, { starts, pages, baseUrl, batch }: LinkRun): Promise<FoundLink[]> {
  const urls = starts.map((path) => `${siteUrl}${path}`)
  const found: FoundLink[] = []
  // What one run found answering, the next need not ask again: the stylesheet, the scripts, the
  // images. Nor need any run ask for a built page at its own URL, which the folder answers by
  // definition (tests/serve and tests/check/folder-fetch.test.ts hold it to that), and most
  // links name one.
  const answered = new Set(pages.map((path) => `${siteUrl}${path}`))
  for (let i = 0; i < urls.length; i += batch) {
    for (const { url, state, status, parent } of await checkFrom(urls.slice(i, i + batch), siteUrl, baseUrl, answered)) {
      if (state === LinkState.OK) answered.add(url)
      const own = (address: string) => (address === siteUrl || address.startsWith(`${siteUrl}/`) ? address.slice(siteUrl.length) || '/' : address)
      found.push({ url: own(url), state, status, ...(parent === undefined ? {} : { parent: own(parent) }) })
    }
  }
  return found
}

/** One linkinator run. */
async function checkFrom(starts: string[], siteUrl: string, baseUrl: string, answered: ReadonlySet<string>): Promise<LinkResult[]> {
  const own = new Set(starts.map((start) => new URL(start).href))
  // linkinator asks linksToSkip of each start as its run begins, before any page is read. Asked
  // again, the start is a link to a page being judged in this run: its canonical or Open Graph
  // URL on the base URL, which linkinator would otherwise fetch a second time (half its requests).
  const begun = new Set<string>()
  const { links } = await new LinkChecker().check({
    path: starts,
    recurse: false,
    checkFragments: false, // links.ts judges anchors from the HTML
    redirects: 'error', // an internal link must name the page's own URL, with its trailing slash
    concurrency: 16,
    urlRewriteExpressions: [{ pattern: new RegExp(`^${escapeRegExp(baseUrl)}(?=/|$)`), replacement: siteUrl }],
    linksToSkip: async (link) => {
      if (link !== siteUrl && !link.startsWith(`${siteUrl}/`)) return true
      if (!own.has(link)) return answered.has(link)
      if (begun.has(link)) return true
      begun.add(link)
      return false
    },
  })
  // Should linkinator ever ask of a link to a start before the start itself, that page would go unjudged.
  const skipped = links.find((link) => link.state === LinkState.SKIPPED && own.has(link.url) && link.parent === undefined)
  if (skipped) throw new Error(`linkinator skipped the page it was asked to judge: ${skipped.url}`)
  return links
}
