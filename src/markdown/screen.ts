/**
 * A look at a Markdown body before the parser reads it. The parser (micromark) takes time that
 * grows with the square of some shapes, or more: lists and quotes nested thousands deep, a
 * paragraph of thousands of emphasis marks or brackets, backtick runs of ever new lengths, HTML
 * comments left open. Text pasted from a word processor can hold them. Each is recognised here
 * in one pass over the text, in milliseconds, and refused; what comes near a limit is marked
 * risky, so that the build parses it where it can be stopped (src/render/shards.ts). Pure, and
 * the same in the browser (the editor's preview).
 *
 * The limits sit far above what an article holds (the shipped site's and a 1,000-article corpus
 * come nowhere near: tests/markdown/screen.test.ts) and below where the parser slows: measured at
 * 1ccc1a6 on 2 shared cores (load 6), the worst shape of each kind at its limit parses in 0.02-1 s
 * (2,000 brackets as "[ (](" 1 s, 1,980 nested emphasis marks 0.5 s). Lists 50 deep followed by
 * 30,000 blank lines took 4 s: what comes near a limit is parsed under the time budget for that.
 */
import { problem } from '../errors.ts'
import type { BodyFacts, Diagnostic } from '../types.ts'

/** Where a shape grows costly: beyond `limit` a body is refused, beyond `risky` it is parsed under the time budget. */
export const LIMITS = {
  /** Lists, block quotes and footnote definitions inside each other. */
  depth: { limit: 50, risky: 16 },
  /** Emphasis and strikethrough marks (* _ ~) in one paragraph. */
  marks: { limit: 2_000, risky: 500 },
  /** Opening brackets ([) in one paragraph: links, images, footnotes, or none closed. */
  brackets: { limit: 2_000, risky: 500 },
  /** Runs of backticks of different lengths in one paragraph (each looks ahead for its match). */
  codeRuns: { limit: 64, risky: 16 },
  /** HTML comments opened (<!--) in one paragraph. */
  comments: { limit: 200, risky: 50 },
} as const

/** Bodies this long are parsed under the time budget whatever their shape. */
export const RISKY_LENGTH = 64 * 1024
/** Separate lists, quotes and tables: the parser's time grows with the square of their number. */
export const RISKY_CONTAINERS = 300

export type Shape = keyof typeof LIMITS

const WHAT: Record<Exclude<Shape, 'depth'>, (limit: number) => string> = {
  marks: (limit) => `one paragraph holds more than ${limit} emphasis marks (* _ ~), which takes the Markdown reader minutes`,
  brackets: (limit) => `one paragraph holds more than ${limit} opening brackets ([), which takes the Markdown reader minutes`,
  codeRuns: (limit) => `one paragraph holds runs of backticks (\`) of more than ${limit} different lengths, which takes the Markdown reader minutes`,
  comments: (limit) => `one paragraph opens more than ${limit} HTML comments (<!--), which takes the Markdown reader minutes`,
}

/** The facts of a body that was refused: the refusal, and nothing found in it. */
export const refusedFacts = (refusal: Diagnostic): BodyFacts => ({ links: [], images: [], diagnostics: [refusal] })

/** The codes of the refusals, which leave a body unread. */
export const REFUSALS: ReadonlySet<string> = new Set(['MarkdownTooDeep', 'MarkdownTooComplex', 'MarkdownTooSlow'])

/** Characters of a body for which it is given site.yaml's `bodyTimeLimit` once more. */
const BUDGET_UNIT = 256 * 1024

/** Seconds a body may take to parse: `timeLimit` (site.yaml's bodyTimeLimit) per 256 KB of it begun. */
export const timeBudget = (markdown: string, timeLimit: number) => timeLimit * Math.max(1, Math.ceil(markdown.length / BUDGET_UNIT))

/** A body the parser was stopped on, after `seconds`. */
export const tooSlow = (seconds: number, file: string, line: number) => problem('MarkdownTooSlow', [seconds], { file, line })

/** A body whose reading ran out of stack (a RangeError from the parser's recursion). */
export const stackRanOut = (file: string, line: number) =>
  problem('MarkdownTooComplex', ['it nests too deeply for the Markdown reader, whose stack ran out'], { file, line })

/** The refusal as the build reports it. */
export function refusalOf(refusal: Refusal, file: string): Diagnostic {
  const at = { file, line: refusal.line }
  return refusal.shape === 'depth'
    ? problem('MarkdownTooDeep', [refusal.found, refusal.limit], at)
    : problem('MarkdownTooComplex', [WHAT[refusal.shape](refusal.limit)], at)
}

export interface Refusal {
  shape: Shape
  /** How many of it were found, against the limit. */
  found: number
  limit: number
  /** The line of the file where the shape starts (the paragraph's first line, or the line nested too deep). */
  line: number
}

export interface Screened { refusal?: Refusal; risky: boolean }

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
/** A GFM footnote's definition, which holds blocks as a list item does: `[^label]:`. */
const FOOTNOTE_DEFINITION = /\[\^[^\][\n]{1,999}\]:/y
const MAY_MARK = /[-*+\d[]/
const FENCE = /^(`{3,}|~{3,})/
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/

/**
 * `firstLine`: the line of the file the body starts on. Counts are kept per paragraph (lines up
 * to a blank one); a heading, a list item or a table row starts a new one, as it does for the
 * parser, whose costly searches stay within one. Fenced code is skipped: the parser does not look into it.
 */
export function screenBody(markdown: string, firstLine = 1): Screened {
  const counts = { marks: 0, brackets: 0, codeRuns: 0, comments: 0 }
  let runLengths = new Set<number>()
  let blockLine = firstLine
  let risky = markdown.length > RISKY_LENGTH
  let containers = 0
  let lastInContainer = false
  /** Content columns of the list items open around the current line, innermost last. */
  let listColumns: number[] = []
  let fence: string | undefined
  const newBlock = (line: number) => {
    counts.marks = counts.brackets = counts.codeRuns = counts.comments = 0
    if (runLengths.size > 0) runLengths = new Set()
    blockLine = line
  }

  let line = firstLine - 1
  for (let start = 0; start <= markdown.length;) {
    line++
    let end = markdown.indexOf('\n', start)
    if (end === -1) end = markdown.length
    const text = markdown.slice(start, end)
    start = end + 1

    // The containers the line opens: > and list markers; a list item's own lines are indented to its content.
    let at = 0
    let quotes = 0
    const opened: number[] = []
    let firstMarkerAt = -1
    for (;;) {
      while (text[at] === ' ' || text[at] === '\t') at++
      if (text[at] === '>') { if (++quotes > LIMITS.depth.limit) break; at++; continue }
      if (fence !== undefined || !MAY_MARK.test(text[at] ?? '')) break
      let length: number
      if (text[at] === '[') {
        FOOTNOTE_DEFINITION.lastIndex = at
        if (!FOOTNOTE_DEFINITION.test(text)) break
        length = FOOTNOTE_DEFINITION.lastIndex - at
      } else {
        const marker = LIST_MARKER.exec(text.slice(at, at + 12))
        if (!marker || (firstMarkerAt === -1 && THEMATIC_BREAK.test(text.slice(at).trimEnd()))) break
        length = marker[0].length
      }
      if (firstMarkerAt === -1) firstMarkerAt = at
      at += length
      opened.push(at)
      if (quotes + opened.length > LIMITS.depth.limit) break
    }
    const rest = text.slice(at)
    if (fence !== undefined) {
      if (rest.startsWith(fence) && /^[`~]+$/.test(rest.trimEnd())) fence = undefined
      continue
    }
    const blank = rest.trim() === ''
    if (opened.length > 0) listColumns = [...listColumns.filter((column) => column <= firstMarkerAt), ...opened]
    else if (!blank && at === 0) listColumns = []
    const depth = quotes + (opened.length > 0 ? listColumns.length : 0)
    if (depth > LIMITS.depth.limit) return { refusal: { shape: 'depth', found: depth, limit: LIMITS.depth.limit, line }, risky: true }
    if (depth > LIMITS.depth.risky) risky = true

    const inContainer = !blank && (quotes > 0 || opened.length > 0 || rest.includes('|'))
    if (inContainer && !lastInContainer) containers++
    lastInContainer = inContainer || (lastInContainer && !blank)
    if (blank) { newBlock(line + 1); continue }
    const opensFence = FENCE.exec(rest)
    if (opensFence) { fence = opensFence[1]!; newBlock(line + 1); continue }
    if (opened.length > 0 || rest.startsWith('#') || rest.includes('|')) newBlock(line)

    for (let i = 0; i < rest.length; i++) {
      const c = rest.charCodeAt(i)
      // An escaped mark (\* as the rich-text editor writes a literal star) is text to the parser.
      if (c === 92 /* \ */) { i++; continue }
      let shape: Shape
      if (c === 42 /* * */ || c === 95 /* _ */ || c === 126 /* ~ */) shape = 'marks'
      else if (c === 91 /* [ */) shape = 'brackets'
      else if (c === 96 /* ` */) {
        let n = 1
        while (rest.charCodeAt(i + n) === 96) n++
        i += n - 1
        if (runLengths.has(n)) continue
        runLengths.add(n)
        shape = 'codeRuns'
      } else if (c === 60 /* < */ && rest.startsWith('<!--', i)) shape = 'comments'
      else continue
      // Stops at the limit: the rest of a pasted megabyte need not be counted.
      if (++counts[shape] > LIMITS[shape].limit) return { refusal: { shape, found: counts[shape], limit: LIMITS[shape].limit, line: blockLine }, risky: true }
    }
    for (const shape of SHAPES) if (counts[shape] > LIMITS[shape].risky) risky = true
  }
  return { risky: risky || containers > RISKY_CONTAINERS }
}

const SHAPES = ['marks', 'brackets', 'codeRuns', 'comments'] as const
