/**
 * Links: linkinator crawls the built site served on 127.0.0.1 from every page, and every internal
 * link, `#anchor`, image, script and stylesheet must answer without an error or a redirect. URLs
 * on the configured base URL (canonical, hreflang, sharing images) are checked on the local copy;
 * links to other sites are listed, never fetched.
 */
import { LinkChecker, LinkState, type LinkResult } from 'linkinator'
import { outputFileFor } from '../shared/urls.ts'
import type { Diagnostic } from '../types.ts'
import { lineColumn } from './html.ts'

export interface LinkReport {
  findings: Diagnostic[]
  /** Links to other sites, each with the first page that links to it. */
  external: { url: string; from: string }[]
}

/**
 * The links on `judged` (every page by default), followed to the pages, files and anchors they
 * name; `pages`: every built HTML file; `serverUrl`: where they are served. Example: 'http://127.0.0.1:4173'
 */
export async function checkLinks(pages: { path: string; html: string }[], serverUrl: string, baseUrl: string, judged = pages): Promise<LinkReport> {
  const external = new Map<string, string>()
  if (judged.length === 0) return { findings: [], external: [] }
  const starts = judged.map((p) => `${serverUrl}/${p.path.replace(/(^|\/)index\.html$/, '$1')}`)
  const result: { links: LinkResult[] } = { links: [] }
  for (let i = 0; i < starts.length; i += BATCH) result.links.push(...await checkFrom(starts.slice(i, i + BATCH), serverUrl, baseUrl))
  for (const link of result.links) {
    if (link.state === LinkState.SKIPPED && link.parent && /^https?:/.test(link.url) && !external.has(link.url)) external.set(link.url, pagePath(link.parent, serverUrl))
  }
  const byPath = new Map(pages.map((p) => [p.path, p]))
  const findings = result.links.filter((l) => l.state === LinkState.BROKEN).flatMap((link): Diagnostic[] => {
    const target = link.url.replace(serverUrl, '')
    // For a missing #anchor linkinator names no parent, or the page that first led it to the target
    // page: the pages that link to it are found by their hrefs.
    const linking = target.includes('#') ? judged.filter((p) => linksTo(p, target)).map((p) => p.path) : []
    const from = linking.length > 0 ? linking : [link.parent ? pagePath(link.parent, serverUrl) : pagePath(link.url, serverUrl)]
    return [...new Set(from)].map((file) => {
      const page = byPath.get(file)
      return {
        code: 'BrokenLink', severity: 'error', file, ...(page ? locate(page, target) : {}),
        message: `${target} ${describe(link.status, target)}`,
        hint: 'Link to a page that the build produces, by its URL with a trailing slash; an #anchor must name an id on that page.',
      }
    })
  })
  // linkinator may report one missing anchor once for each page that links to it.
  const unique = [...new Map(findings.map((f) => [`${f.file} ${f.line} ${f.column} ${f.message}`, f])).values()]
  return { findings: unique, external: [...external].map(([url, from]) => ({ url, from })) }
}

/**
 * Pages per linkinator run. Its queue shifts an array that holds a task for every link it has
 * seen, so the time of one run grows with the square of its pages (77 s for 4,250 pages);
 * runs of a hundred pages each re-check only the few links that every page shares.
 */
const BATCH = 100

/** One linkinator run: every page to judge is a start; the pages they link to are fetched, not crawled. */
async function checkFrom(starts: string[], serverUrl: string, baseUrl: string): Promise<LinkResult[]> {
  const { links } = await new LinkChecker().check({
    path: starts,
    recurse: false,
    checkFragments: true,
    redirects: 'error', // an internal link must name the page's own URL, with its trailing slash
    concurrency: 16,
    urlRewriteExpressions: [{ pattern: new RegExp(`^${escapeRegExp(baseUrl)}(?=/|$)`), replacement: serverUrl }],
    linksToSkip: async (link) => link !== serverUrl && !link.startsWith(`${serverUrl}/`),
  })
  return links
}

function describe(status: number | undefined, target: string): string {
  if (status && status >= 300 && status < 400) return `redirects (status ${status}): link to the address it redirects to`
  if (status && status >= 400) return `answers status ${status}`
  if (status && target.includes('#')) return 'names an anchor that is not on the page'
  return 'could not be fetched'
}

/** Whether a page links to `target` (a path with an anchor), by its full path or, on the page itself, by the anchor alone. */
function linksTo(page: { path: string; html: string }, target: string): boolean {
  const [path, anchor] = target.split('#')
  return page.html.includes(`href="${target}"`) || (outputFileFor(path!) === page.path && page.html.includes(`href="#${anchor}"`))
}

/** The output file a page URL is served from. Example: 'http://…/cn/contact/' -> 'cn/contact/index.html' */
function pagePath(url: string, serverUrl: string): string {
  return outputFileFor(new URL(url.replace(serverUrl, 'http://site')).pathname)
}

/** Where the link appears in the page's source: the first attribute that names it. */
function locate(page: { path: string; html: string }, target: string): { line: number; column: number } | object {
  const [path, anchor] = target.split('#')
  for (const candidate of [`="${target}"`, ...(anchor ? [`href="#${anchor}"`] : []), `="${path}`]) {
    const offset = page.html.indexOf(candidate)
    if (offset !== -1) return lineColumn(page.html)(offset + 1)
  }
  return {}
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
