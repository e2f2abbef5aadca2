/**
 * Translations, read off the built site: every page exists in every locale (except the sections
 * published in one locale), every message exists in every locale file, and no page carries
 * paragraphs in another language's script (a Chinese page with an English paragraph, say). Pure.
 */
import { loadMessages } from '../content/messages.ts'
import { localeUrl, splitLocale } from '../shared/urls.ts'
import type { Diagnostic, SiteConfig, SourceFile } from '../types.ts'
import { langOf, lineColumn, readHtml, type HtmlElement } from './html.ts'
import { hashOf, oncePerKey } from '../util/memo.ts'
import { judgeNow, type Remember } from './cache.ts'

/** `remember` answers for a page judged before (check/cache.ts). */
export function checkTranslations(pages: { path: string; html: string; hash?: string }[], localeFiles: SourceFile[], site: SiteConfig, remember: Remember = judgeNow): Diagnostic[] {
  return [
    ...missingPages(pages.map((p) => p.path), site),
    ...loadMessages(localeFiles, site).diagnostics.filter((d) => d.code === 'MissingMessage'),
    ...pages.flatMap((p) => remember(`translations ${p.hash ?? hashOf(p.html)}`, () => wrongScript(p))),
  ]
}

/** Pages that exist in some locales but not in all of them. */
function missingPages(paths: string[], site: SiteConfig): Diagnostic[] {
  const locales = site.locales.map((l) => l.code)
  const byPath = new Map<string, Map<string, string>>()
  for (const file of paths.filter((p) => p.endsWith('.html'))) {
    const { locale, path } = splitLocale(`/${file}`.replace(/index\.html$/, ''), locales, site.defaultLocale)
    const section = path.split('/')[1] ?? ''
    if (section in site.singleLocaleSections) continue
    if (!byPath.has(path)) byPath.set(path, new Map())
    byPath.get(path)!.set(locale, file)
  }
  const found: Diagnostic[] = []
  for (const [path, files] of byPath) {
    const [, file] = [...files][0]!
    for (const locale of locales.filter((l) => !files.has(l))) {
      found.push({
        code: 'MissingTranslation', severity: 'error', file,
        message: `This page has no "${locale}" version: ${localeUrl(locale, path, site.defaultLocale)} is missing.`,
        hint: 'Add the translated Markdown file with the same name under content/<locale>/.',
      })
    }
  }
  return found
}

const BLOCKS = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'dd', 'td', 'th', 'figcaption', 'blockquote', 'summary'])
/** Blocks shorter than this many letters (a name, a number) say nothing about a page's language. */
const MIN_LETTERS = 40

/** Blocks of the main content mostly written in a script other than their language's. */
function wrongScript(page: { path: string; html: string }): Diagnostic[] {
  // Only the main content is read, which spares parsing the rest of the page.
  const start = page.html.indexOf('<main')
  const end = page.html.lastIndexOf('</main>')
  if (start === -1 || end < start) return []
  const markup = page.html.slice(start, end + '</main>'.length)
  const pageLang = /<html[^>]*\slang="?([^"\s>]+)/.exec(page.html)?.[1]
  const pageScript = pageLang && scriptOf(pageLang)
  // Content with no letter of another script, no passage marked with another language and no
  // character written as an entity holds no block in another script: it is not parsed.
  if (pageScript && !/\slang=|&(?!amp;|lt;|gt;|quot;|#39;)/.test(markup) && !holdsOtherLetter(markup, pageScript)) return []
  const main = readHtml(page.path, markup).doc.children.find((n) => 'attribs' in n) as HtmlElement | undefined
  if (!main) return []
  let at: ReturnType<typeof lineColumn> | undefined // made for the first finding: most pages have none
  const found: Diagnostic[] = []
  for (const block of innermostBlocks(main)) {
    const lang = langOf(block) ?? pageLang
    const script = lang && scriptOf(lang)
    if (!script) continue
    const text = ownText(block)
    // Most blocks hold no letter of another script: they pass without their words being counted.
    if (!holdsOtherLetter(text, script)) continue
    if ((text.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) continue
    if (shareInScript(text, script) >= 0.5) continue
    found.push({
      code: 'WrongLanguage', severity: 'error', file: page.path, ...(at ??= lineColumn(page.html))(start + (block.startIndex ?? 0)),
      message: `This text is not in the page's language (${lang}): "${text.slice(0, 60)}${text.length > 60 ? '…' : ''}"`,
      hint: 'Translate it, or mark a passage that must stay in another language with lang="…" (in Markdown: <span lang="en">…</span>).',
    })
  }
  return found
}

/** The blocks under `root` that hold no other block, in document order. */
function innermostBlocks(root: HtmlElement): HtmlElement[] {
  const found: HtmlElement[] = []
  /** Walks `el`'s subtree and says whether it holds a block. */
  const walk = (el: HtmlElement): boolean => {
    let holdsBlock = false
    for (const child of el.children) if ('attribs' in child && walk(child as HtmlElement)) holdsBlock = true
    if (!BLOCKS.has(el.name)) return holdsBlock
    if (!holdsBlock) found.push(el)
    return true
  }
  walk(root)
  return found
}

/** A block's text, leaving out the parts marked with a language of their own (`<a lang="en">`). */
function ownText(block: HtmlElement): string {
  const parts: string[] = []
  const walk = (node: HtmlElement['children'][number]) => {
    if (node.type === 'text') parts.push((node as unknown as { data: string }).data)
    else if ('attribs' in node && !(node !== block && node.attribs.lang)) node.children.forEach(walk)
  }
  walk(block)
  return parts.join('').replace(/\s+/g, ' ').trim()
}

/**
 * The share of a text's words written in `script`. A run of letters is one word, and in scripts
 * written without spaces (Han, Kana, Thai) each character counts as one, so a Chinese sentence
 * naming "Amberlin Surgical Pte. Ltd." is still mostly Chinese. Example: ('您好 Dr Quah', 'Hani') -> 0.5
 */
function shareInScript(text: string, script: string): number {
  const own = startsInScript(script)
  let words = 0
  let inScript = 0
  for (const [word] of text.matchAll(WORDS)) {
    words++
    if (own.test(word)) inScript++
  }
  return words === 0 ? 1 : inScript / words
}

const startsInScript = oncePerKey((script: string) => new RegExp(`^\\p{Script=${script}}`, 'u'))
const otherLetter = oncePerKey((script: string) => new RegExp(`[\\p{L}--\\p{Script=${script}}]`, 'v'))

/**
 * Whether `text` holds a letter of a script other than `script`. Every ASCII letter is Latin, so
 * in Latin text only the runs of characters beyond ASCII are tested, which an English page has
 * few of: testing every character of 1,000 pages took 0.2 s, this 7 ms.
 */
function holdsOtherLetter(text: string, script: string): boolean {
  if (script !== 'Latn') return otherLetter(script).test(text)
  for (const [run] of text.matchAll(/[^\x00-\x7F]+/g)) if (otherLetter(script).test(run!)) return true
  return false
}

const UNSPACED = '\\p{Script=Hani}\\p{Script=Hira}\\p{Script=Kana}\\p{Script=Thai}'
/** One character of an unspaced script, or a run of other letters. */
const WORDS = new RegExp(`[${UNSPACED}]|(?:(?![${UNSPACED}])\\p{L})+`, 'gu')

/** The Unicode script a language is written in. Example: 'zh' -> 'Hani', 'en' -> 'Latn', 'ta' -> 'Taml' */
const scriptOf = oncePerKey((lang: string): string | undefined => {
  try {
    const script = new Intl.Locale(lang).maximize().script
    return script === 'Hans' || script === 'Hant' ? 'Hani' : script
  } catch {
    return undefined
  }
})
