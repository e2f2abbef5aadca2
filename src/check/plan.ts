/**
 * Which built pages the browser must open. What a page's template, stylesheet and scripts decide
 * (contrast, landmarks, focus order, the islands once started, the security policy in force, the
 * bytes loaded) is the same on every page of one kind, so one page of each kind is opened; what
 * a page's own content decides is judged on every page without a browser (content-rules.ts),
 * except content only a browser can judge: Markdown tables and embedded HTML, whose layout and
 * colours come from the stylesheet. A page the last build's manifest does not vouch for is
 * opened itself. Pure.
 */
import type { PageDigest } from './digest.ts'
import type { PageFacts } from '../build/manifest.ts'

export interface CheckedPage {
  /** Example: 'cn/contact/index.html' */
  path: string
  html: string
  /** contentHash of the HTML: what the check cache knows it by. */
  hash: string
  /** What the last build says of this page; absent when the HTML is not what it wrote. */
  facts?: PageFacts
  /** The Markdown it was rendered from, when known. */
  source?: { file: string; text: string }
  /** What the checks read of its HTML (digest.ts). */
  digest: PageDigest
}

/**
 * A kind of page: one template in one locale with one set of islands, since each island brings
 * its own markup, script and styles. Example: 'service cn accordion,tabs'
 */
export const kindOf = (page: CheckedPage): string | undefined =>
  page.facts && `${page.facts.template} ${page.facts.locale} ${page.digest.islands.join(',')}`

/**
 * Why a page must be opened in the browser itself, beside its kind's page; undefined when its
 * content is judged well enough from the HTML.
 *   '| a | b |\n|---|---|' -> 'a table'; 'text <span style="color:red">' -> 'embedded HTML'
 */
export function browserReason(page: CheckedPage): string | undefined {
  if (!page.facts) return 'not written by the last build'
  const markdown = page.source?.text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '') // code blocks show their HTML as text
  if (markdown === undefined) return undefined
  // Most articles hold no "|" or "<" at all: the patterns are tried only where they could match.
  if (markdown.includes('|') && /^ {0,3}\|?.*\|.*\n {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/m.test(markdown)) return 'a table'
  if (markdown.includes('<') && /<[a-zA-Z][\w-]*(\s|\/?>)/.test(markdown.replace(/`[^`\n]*`/g, ''))) return 'embedded HTML'
  return undefined
}

export interface BrowserPlan {
  /** Pages to open, each with the kinds it stands for (none: opened for its own content). */
  visits: { page: CheckedPage; kinds: string[] }[]
}

/**
 * The pages to open: every page whose own content needs it, and one page of each kind not
 * already judged (`judged(kind)`), preferring a page that is opened anyway.
 */
export function planVisits(pages: CheckedPage[], judged: (kind: string) => boolean, pageJudged: (page: CheckedPage) => boolean): BrowserPlan {
  const visits = new Map<string, BrowserPlan['visits'][number]>()
  for (const page of pages) {
    if (browserReason(page) && !pageJudged(page)) visits.set(page.path, { page, kinds: [] })
  }
  const byKind = new Map<string, CheckedPage[]>()
  for (const page of pages) {
    const kind = kindOf(page)
    if (kind !== undefined && !judged(kind)) byKind.set(kind, [...byKind.get(kind) ?? [], page])
  }
  for (const [kind, members] of byKind) {
    const chosen = members.find((p) => visits.has(p.path)) ?? members[0]!
    const visit = visits.get(chosen.path) ?? { page: chosen, kinds: [] }
    visit.kinds.push(kind)
    visits.set(chosen.path, visit)
  }
  return { visits: [...visits.values()].sort((a, b) => a.page.path.localeCompare(b.page.path)) }
}
