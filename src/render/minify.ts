/**
 * HTML minification with html-minifier-terser; the markup React emits is already compact.
 * `decodeEntities` is left off: on a typical 25 KB page it saves about 200 bytes (40 gzipped,
 * mostly &quot; in attributes) and doubles the minifier's time, a third of a cold build's.
 */
import { minify } from 'html-minifier-terser'

const options = {
  collapseWhitespace: true,
  conservativeCollapse: true,
  removeComments: true,
  collapseBooleanAttributes: true,
  removeRedundantAttributes: true,
  useShortDoctype: true,
  // Template fragments (<% %>, <? ?>) to leave alone: React escapes every < it writes, so a page
  // holds none, and looking for them scanned every page once more.
  ignoreCustomFragments: [],
}

export function minifyHtml(html: string): Promise<string> {
  return minify(html, options)
}

/** Distinct blocks remembered by one page minifier: a few per locale, far fewer than pages. */
const REMEMBERED_BLOCKS = 64
/** Stands in for a block while the rest of the page is minified: a character HTML never holds. */
const MARK = '\u0001'

/**
 * Minifies page after page. The banner (the `<header>` before `<main>`) and the content info (the
 * `<footer>` after it) are the same on most pages and a third of their markup: each distinct one
 * is minified once and put back in place, which takes 40% off the minifier's time per page. Minified
 * apart they come out as they would in place, because React's markup has no whitespace between
 * elements for the minifier to weigh (tests/render/minify.test.ts holds every page of the site to that).
 */
export function pageMinifier(): (html: string) => Promise<string> {
  const minified = new Map<string, Promise<string>>()
  const blockOnce = (block: string): Promise<string> => {
    let result = minified.get(block)
    if (!result) {
      if (minified.size >= REMEMBERED_BLOCKS) minified.delete(minified.keys().next().value!)
      minified.set(block, (result = minifyHtml(block)))
    }
    return result
  }
  return async (html) => {
    const blocks = html.includes(MARK) ? [] : landmarkBlocks(html)
    if (blocks.length === 0) return minifyHtml(html)
    let rest = ''
    let from = 0
    blocks.forEach(([start, end], i) => {
      rest += `${html.slice(from, start)}${MARK}${i}${MARK}`
      from = end
    })
    const [page, ...parts] = await Promise.all([minifyHtml(rest + html.slice(from)), ...blocks.map(([start, end]) => blockOnce(html.slice(start, end)))])
    return page.replace(new RegExp(`${MARK}(\\d+)${MARK}`, 'g'), (_, i: string) => parts[Number(i)]!)
  }
}

/** [start, end) of the page's banner and content info, those of them it has. */
export function landmarkBlocks(html: string): Array<[number, number]> {
  const main = html.indexOf('<main')
  const mainEnd = html.lastIndexOf('</main>')
  if (main < 0 || mainEnd < 0) return []
  const banner = element(html, 'header', html.search(/<header[\s>]/))
  const info = element(html, 'footer', indexFrom(html, /<footer[\s>]/g, mainEnd))
  return [banner && banner[1] <= main ? banner : undefined, info].filter((block) => block !== undefined)
}

/** The extent of the `tag` element opening at `start`, counting nested ones of the same name. */
function element(html: string, tag: string, start: number): [number, number] | undefined {
  if (start < 0) return undefined
  const tags = new RegExp(`<(/?)${tag}[\\s>]`, 'g')
  tags.lastIndex = start
  let depth = 0
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[1] ? -1 : 1
    if (depth === 0) return [start, html.indexOf('>', match.index) + 1]
  }
  return undefined
}

function indexFrom(html: string, pattern: RegExp, from: number): number {
  pattern.lastIndex = from
  return pattern.exec(html)?.index ?? -1
}
