/**
 * Links: linkinator fetches every internal link, image, script and stylesheet of each page from
 * the built site served on 127.0.0.1, and each must answer without an error or a redirect. URLs
 * on the configured base URL (canonical, hreflang, sharing images) are checked on the local copy;
 * links to other sites are listed, never fetched. An `#anchor` must name an id (or a named
 * anchor) on its page: that is read from the built HTML, since linkinator's own check of anchors
 * on other pages depends on the order it reaches them, and missed some in tests.
 */
import { LinkChecker, LinkState, type LinkResult } from 'linkinator'
import { outputFileFor, urlOfOutput } from '../shared/urls.ts'
import { escapeRegExp } from '../util/regexp.ts'
import { oncePerKey } from '../util/memo.ts'
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
export async function checkLinks(pages: { path: string; html: string }[], serverUrl: string, baseUrl: string, judged = pages, batch = BATCH): Promise<LinkReport> {
  const external = new Map<string, string>()
  if (judged.length === 0) return { findings: [], external: [] }
  const starts = judged.map((p) => `${serverUrl}${urlOfOutput(p.path)}`)
  const result: { links: LinkResult[] } = { links: [] }
  // What one run found answering, the next need not ask again: the stylesheet, the scripts, the menu's pages.
  const answered = new Set<string>()
  for (let i = 0; i < starts.length; i += batch) {
    const links = await checkFrom(starts.slice(i, i + batch), serverUrl, baseUrl, answered)
    for (const link of links) if (link.state === LinkState.OK) answered.add(link.url)
    result.links.push(...links)
  }
  for (const link of result.links) {
    const elsewhere = /^https?:/.test(link.url) && !link.url.startsWith(`${serverUrl}/`) && link.url !== serverUrl
    if (link.state === LinkState.SKIPPED && link.parent && elsewhere && !external.has(link.url)) external.set(link.url, pagePath(link.parent, serverUrl))
  }
  const byPath = new Map(pages.map((p) => [p.path, p]))
  const findings = result.links.filter((l) => l.state === LinkState.BROKEN).map((link): Diagnostic => {
    const target = link.url.replace(serverUrl, '')
    const file = link.parent ? pagePath(link.parent, serverUrl) : pagePath(link.url, serverUrl)
    const page = byPath.get(file)
    return brokenLink(file, page ? locate(page, target) : {}, `${target} ${describe(link.status)}`)
  })
  return { findings: [...findings, ...missingAnchors(pages, judged, baseUrl)], external: [...external].map(([url, from]) => ({ url, from })) }
}

function brokenLink(file: string, at: { line: number; column: number } | object, message: string): Diagnostic {
  return {
    code: 'BrokenLink', severity: 'error', file, ...at, message,
    hint: 'Link to a page that the build produces, by its URL with a trailing slash; an #anchor must name an id on that page.',
  }
}

/**
 * Links on `judged` to an `#anchor` of a built page (its own, or another) that holds no such id or
 * named anchor. `#` and `#top` go to the top of any page. A page that is not built is linkinator's to report.
 */
export function missingAnchors(pages: { path: string; html: string }[], judged: { path: string; html: string }[], baseUrl: string): Diagnostic[] {
  const byPath = new Map(pages.map((p) => [p.path, p]))
  const anchorsOf = oncePerKey((path: string) => new Set([...byPath.get(path)!.html.matchAll(/\s(?:id|name)="?([^"\s>]+)/g)].map((m) => decodeHtml(m[1]!))))
  const href = new RegExp(`\\shref="?(?:${escapeRegExp(baseUrl)})?(/[^"\\s>#]*)?#([^"\\s>]*)`, 'g')
  const found: Diagnostic[] = []
  for (const page of judged) {
    const at = lineColumn(page.html)
    for (const m of page.html.matchAll(href)) {
      const [, path, fragment = ''] = m
      const target = path === undefined ? page.path : outputFileFor(path)
      const anchor = safeDecode(decodeHtml(fragment))
      if (anchor === '' || anchor.toLowerCase() === 'top' || !byPath.has(target) || anchorsOf(target).has(anchor)) continue
      const url = `${urlOfOutput(target)}#${fragment}`
      found.push(brokenLink(page.path, at(m.index + 1), `${url} names an anchor that is not on the page`))
    }
  }
  return found
}

const decodeHtml = (text: string) => text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'")
function safeDecode(text: string): string {
  try { return decodeURIComponent(text) } catch { return text }
}

/**
 * Pages per linkinator run. Its queue shifts an array that holds a task for every link it has
 * seen, so the time of one run grows with the square of its pages (77 s for 4,250 pages, 32 s
 * in runs of a hundred). A run does not ask again what an earlier one found answering (17 s).
 */
const BATCH = 100

/** One linkinator run: every page to judge is a start; the pages they link to are fetched, not crawled. */
async function checkFrom(starts: string[], serverUrl: string, baseUrl: string, answered: ReadonlySet<string>): Promise<LinkResult[]> {
  const own = new Set(starts.map((start) => new URL(start).href))
  const { links } = await new LinkChecker().check({
    path: starts,
    recurse: false,
    checkFragments: false, // missingAnchors
    redirects: 'error', // an internal link must name the page's own URL, with its trailing slash
    concurrency: 16,
    urlRewriteExpressions: [{ pattern: new RegExp(`^${escapeRegExp(baseUrl)}(?=/|$)`), replacement: serverUrl }],
    // linkinator asks this of its starts too: a page to judge is never skipped.
    linksToSkip: async (link) => (link !== serverUrl && !link.startsWith(`${serverUrl}/`)) || (answered.has(link) && !own.has(link)),
  })
  return links
}

function describe(status: number | undefined): string {
  if (status && status >= 300 && status < 400) return `redirects (status ${status}): link to the address it redirects to`
  if (status && status >= 400) return `answers status ${status}`
  return 'could not be fetched'
}

/** The output file a page URL is served from. Example: 'http://…/cn/contact/' -> 'cn/contact/index.html' */
function pagePath(url: string, serverUrl: string): string {
  return outputFileFor(new URL(url.replace(serverUrl, 'http://site')).pathname)
}

/** Where the link appears in the page's source: the first attribute that names it. */
function locate(page: { path: string; html: string }, target: string): { line: number; column: number } | object {
  const [path] = target.split('#')
  for (const candidate of [`="${target}"`, `="${path}`]) {
    const offset = page.html.indexOf(candidate)
    if (offset !== -1) return lineColumn(page.html)(offset + 1)
  }
  return {}
}

