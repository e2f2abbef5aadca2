/**
 * What several checks read of every built page's HTML: the islands it marks and the stylesheets
 * it links (what it loads, for the budgets and its kind), and the site's own files it links to
 * (whose changes call for its links to be judged again). The check cache keeps it with the page's
 * file size and time (index.ts readPages), so that a run after one edit reads only the HTML of
 * the pages it judges. Pure.
 */
import { islandsOf } from '../assets/script-graph.ts'
import { outputFileFor } from '../shared/urls.ts'
import { escapeRegExp } from '../util/regexp.ts'

export interface PageDigest {
  /** Example: ['accordion', 'tabs'] */
  islands: string[]
  /** Hrefs of its stylesheet links on this site. Example: ['/assets/main.3f2a.css'] */
  stylesheets: string[]
  /** Output files of the site's own pages and files it links to, sorted. Example: ['contact/index.html'] */
  targets: string[]
}

/** `baseUrl`: links on it are the site's own. */
export function readDigest(html: string, baseUrl: string): PageDigest {
  const stylesheets = [...html.matchAll(/<link\b[^>]*\brel="?stylesheet"?[^>]*>/g)].map((m) => /\bhref="?(\/[^"\s>]*)/.exec(m[0])?.[1])
    .filter((href): href is string => href !== undefined && !href.startsWith('//'))
  const internal = new RegExp(`(?:href|src)="(?:${escapeRegExp(baseUrl)})?(/[^"#?]*)`, 'g')
  const targets = [...new Set([...html.matchAll(internal)].map((m) => outputFileFor(decodeURI(m[1]!))))].sort()
  return { islands: islandsOf(html), stylesheets, targets }
}
