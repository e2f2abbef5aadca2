/**
 * Links: linkinator fetches every internal link, image, script and stylesheet of each page from
 * the built site, answered as `serve` answers it, and each must answer without an error or a redirect. URLs
 * on the configured base URL (canonical, hreflang, sharing images) are checked on the local copy;
 * links to other sites are listed, never fetched. An `#anchor` must name an id (or a named
 * anchor) on its page: that is read from the built HTML, since linkinator's own check of anchors
 * on other pages depends on the order it reaches them, and missed some in tests.
 */
import { outputFileFor, urlOfOutput } from '../shared/urls.ts'
import { escapeRegExp } from '../util/regexp.ts'
import { oncePerKey } from '../util/memo.ts'
import type { Diagnostic } from '../types.ts'
import { lineColumn } from './html.ts'
import type { FoundLink, LinkRun } from './linkinator.ts'
import type { LinksRunning } from './served.ts'

export interface LinkReport {
  findings: Diagnostic[]
  /** Links to other sites, each with every judged page that links to it. */
  external: { url: string; from: string }[]
}

/**
 * The run that judges the links on `judged` (output paths of pages); `pages`: every built page.
 * Example: linkRun(['index.html', 'contact/index.html'], ['contact/index.html'], 'https://clinic.sg')
 */
export const linkRun = (pages: string[], judged: string[], baseUrl: string, batch = BATCH): LinkRun =>
  ({ starts: judged.map(urlOfOutput), pages: pages.map(urlOfOutput), baseUrl, batch })

/**
 * The links on `judged` (every page by default), followed to the pages, files and anchors they
 * name; `pages`: every built HTML file. `linkinator` gives its thread on the built folder (served.ts
 * linksServed), asked for only when there are pages to judge; the thread is given this run unless
 * it was given one already, as soon as the pages were listed.
 */
export async function checkLinks(pages: { path: string; html: string }[], baseUrl: string, linkinator: () => LinksRunning, { judged = pages, batch = BATCH } = {}): Promise<LinkReport> {
  if (judged.length === 0) return { findings: [], external: [] }
  const thread = linkinator()
  thread.start(linkRun(pages.map((p) => p.path), judged.map((p) => p.path), baseUrl, batch))
  const links = await thread.result()
  const elsewhere = links.filter((link) => link.state === 'SKIPPED' && link.parent && /^https?:/.test(link.url))
  const byPath = new Map(pages.map((p) => [p.path, p]))
  const findings = links.filter((l) => l.state === 'BROKEN').map((link): Diagnostic => {
    const target = link.url
    const file = pagePath(link.parent ?? link.url)
    const page = byPath.get(file)
    return brokenLink(file, page ? locate(page, target) : {}, `${target} ${describe(link.status)}`)
  })
  return { findings: [...findings, ...missingAnchors(pages, judged, baseUrl)], external: linksElsewhere(judged, elsewhere) }
}

/**
 * Every judged page that links to each site linkinator skipped. It reports a skipped link once a
 * run, on the first page it read, so the other pages naming it are found in their HTML.
 */
function linksElsewhere(judged: { path: string; html: string }[], skipped: FoundLink[]): LinkReport['external'] {
  const urls = new Set(skipped.map((link) => link.url))
  const found = new Map<string, { url: string; from: string }>()
  const add = (url: string, from: string) => found.set(`${url} ${from}`, { url, from })
  for (const link of skipped) add(link.url, pagePath(link.parent!))
  // Most pages name the same few sites (the footer's): each address is read once.
  const read = oncePerKey((named: string) => absolute(decodeHtml(named)))
  for (const page of judged) {
    for (const [, named] of page.html.matchAll(/\s[\w-]+="?(https?:\/\/[^"\s>]+)/g)) {
      const url = read(named!)
      if (url && urls.has(url)) add(url, page.path)
    }
  }
  return [...found.values()]
}

function absolute(url: string): string | undefined {
  try { return new URL(url).href } catch { return undefined }
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
 * seen, each a timer of its own, and every link already seen searches the run's results: the cost
 * of one run grows with the square of its pages (77 s for 4,250 pages, 32 s in runs of a hundred).
 * A run does not ask again what an earlier one found answering, so short runs repeat little: at
 * 1,000 and 4,000 articles, linkinator's runs of 20 took a fifth to a third less CPU than runs of 100.
 */
const BATCH = 20

function describe(status: number | undefined): string {
  if (status && status >= 300 && status < 400) return `redirects (status ${status}): link to the address it redirects to`
  if (status && status >= 400) return `answers status ${status}`
  return 'could not be fetched'
}

/** The output file a page's path is served from. Example: '/cn/contact/?q' -> 'cn/contact/index.html' */
function pagePath(path: string): string {
  return outputFileFor(new URL(path, 'http://site').pathname)
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

