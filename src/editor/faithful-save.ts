/**
 * What a save in the editor writes: the file as it was, with only the lines of the fields the
 * editor changed replaced. Decap CMS writes a whole new file from its data (its own key order,
 * quoting and line wrapping), so a one-word fix would read as a rewrite in the review diff. Here
 * that new file is read back and compared with the original field by field, and the original
 * text is patched: a changed field's lines are replaced, a cleared field's removed, a new one
 * inserted after the field before it in the schema's order; comments, quoting, list style, line
 * endings and every other field stay byte for byte. Pure.
 *
 *   original '---\ntitle: Ear  # short\nsummary: "Old"\n---\nText\n', Decap's summary 'New'
 *     -> '---\ntitle: Ear  # short\nsummary: "New"\n---\nText\n'
 */
import { Document, isCollection, isScalar, parseDocument, type Node, type Pair, type Scalar } from 'yaml'
import { markdownFile } from './page-source.ts'

/** A Markdown file: its front matter's YAML (with its last line break), where it starts, and the text after it. */
interface Parts { front: string; frontStart: number; frontEnd: number; body: string; eol: '\n' | '\r\n' }

const FRONT = /^---[ \t]*(\r?\n)([\s\S]*?\n)?---[ \t]*(?:\r?\n|$)/

function split(text: string): Parts | undefined {
  const m = FRONT.exec(text)
  if (!m) return undefined
  const frontStart = m[0].indexOf('\n') + 1
  const front = m[2] ?? ''
  return { front, frontStart, frontEnd: frontStart + front.length, body: text.slice(m[0].length), eol: m[1] === '\r\n' ? '\r\n' : '\n' }
}

/** A field left empty is no value: Decap keeps it as '', null or [], the site leaves it out. */
const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
/** The text of a page without the blank lines around it and with Unix line breaks: Decap's Markdown editor trims both. */
const plainText = (body: string) => body.replace(/\r\n/g, '\n').replace(/^\n+/, '').trimEnd()

/**
 * The file to write for `saved` (the file Decap made) when the file on record is `original`
 * (undefined for a new page), `fields` being the collection's fields in the schema's order.
 * Undefined when nothing changed: the file is then not written at all.
 */
export function faithfulSave(original: string | undefined, saved: string, fields: string[]): string | undefined {
  const next = split(saved)
  const before = original === undefined ? undefined : split(original)
  if (!next) return original === saved ? undefined : saved
  const values = (parseDocument(next.front).toJSON() ?? {}) as Record<string, unknown>
  if (original === undefined || !before) return newFile(values, next.body, fields)

  const doc = parseDocument(before.front)
  if (doc.errors.length > 0 || (doc.contents !== null && !('items' in doc.contents))) return saved // not a map of fields: Decap's file as it is
  const pairs = ((doc.contents as { items?: Pair[] } | null)?.items ?? []) as Pair<Scalar, Node | null>[]
  const present = new Map(pairs.map((pair) => [String(pair.key.value), pair]))
  const edits: { start: number; end: number; text: string }[] = []
  const fieldOf = (name: string) => fields.indexOf(name)

  for (const [name, pair] of present) {
    const old = pair.value === null ? null : (pair.value as Node).toJSON()
    const value = values[name]
    // A key Decap does not know (not a field) is kept whatever Decap wrote.
    if (!(name in values) && fieldOf(name) === -1) continue
    if (same(old, value) || (isEmpty(old) && isEmpty(value))) continue
    const { start, end, trailing } = rangeOf(before.front, pair)
    edits.push({ start, end, text: isEmpty(value) ? '' : pairText(name, value, pair.value, trailing, before.front) })
  }
  // New fields: after the nearest field before them in the schema's order, else before the first
  // after, else after the last pair (before any comment or blank line that closes the front matter).
  const added = Object.keys(values).filter((name) => !present.has(name) && !isEmpty(values[name]))
    .sort((a, b) => order(fieldOf(a)) - order(fieldOf(b)))
  for (const name of added) {
    const index = fieldOf(name)
    const earlier = index === -1 ? undefined : fields.slice(0, index).reverse().find((f) => present.has(f))
    const later = index === -1 ? undefined : fields.slice(index + 1).find((f) => present.has(f))
    const at = earlier ? rangeOf(before.front, present.get(earlier)!).end
      : later ? rangeOf(before.front, present.get(later)!).start
        : pairs.length > 0 ? rangeOf(before.front, pairs.at(-1)!).end : 0
    edits.push({ start: at, end: at, text: pairText(name, values[name], null, '', before.front) })
  }

  const text = keptLines(plainText(before.body), plainText(next.body))
  const unchangedBody = text === plainText(before.body)
  if (edits.length === 0 && unchangedBody) return undefined
  let front = before.front
  // Right to left, so that each offset still points where it did; at one place, a replaced field
  // first, then the fields inserted before it, last first.
  const rightToLeft = (a: Edit, b: Edit) => b.start - a.start || (b.end - b.start) - (a.end - a.start) || b.i - a.i
  for (const edit of edits.map((e, i) => ({ ...e, i })).sort(rightToLeft)) {
    front = front.slice(0, edit.start) + withEol(edit.text, before.eol) + front.slice(edit.end)
  }
  const body = unchangedBody ? before.body : withEol(leadingBlank(before.body) + text + '\n', before.eol)
  return original.slice(0, before.frontStart) + front + original.slice(before.frontEnd, original.length - before.body.length) + body
}

type Edit = { start: number; end: number; i: number }

const order = (index: number) => (index === -1 ? Number.MAX_SAFE_INTEGER : index)

/**
 * Where a top-level pair's lines are in the front matter: from its key to the end of its value's
 * last line. A comment after the value on its last line is returned apart, to be kept.
 */
function rangeOf(front: string, pair: Pair<Scalar, Node | null>): { start: number; end: number; trailing: string } {
  const start = pair.key.range![0]
  const valueEnd = pair.value?.range?.[1] ?? pair.key.range![2]
  if (front[valueEnd - 1] === '\n') return { start, end: valueEnd, trailing: '' }
  const lineEnd = front.indexOf('\n', valueEnd)
  const end = lineEnd === -1 ? front.length : lineEnd + 1
  const rest = front.slice(valueEnd, end).replace(/\r?\n$/, '')
  return { start, end, trailing: /^\s+#/.test(rest) ? rest : '' }
}

/**
 * One field as YAML, in the style of the value it replaces where that style can hold the new
 * value (quotes, a block scalar, a flow list, a block list's items indented or not), on one line
 * however long unless it was folded.
 */
function pairText(name: string, value: unknown, was: Node | null, trailing: string, front: string): string {
  const doc = new Document({ [name]: value })
  const node = (doc.contents as unknown as { items: Pair<Scalar, Node>[] }).items[0]!.value!
  if (was && isScalar(was) && isScalar(node) && typeof node.value === 'string') node.type = was.type
  if (was && isCollection(was) && isCollection(node)) node.flow = was.flow
  const folded = isScalar(node) && node.type === 'BLOCK_FOLDED'
  // A block list written `key:\n- item` has its first item at the start of a line.
  const indentSeq = !(was && isCollection(was) && !was.flow && was.range && front[was.range[0] - 1] === '\n')
  const text = doc.toString({ lineWidth: folded ? 80 : 0, flowCollectionPadding: false, indentSeq })
  return trailing && !text.slice(0, -1).includes('\n') ? `${text.slice(0, -1)}${trailing}\n` : text
}

/** A new page's file: its fields in the schema's order (then any other), each value on one line. */
function newFile(values: Record<string, unknown>, body: string, fields: string[]): string {
  const names = Object.keys(values).sort((a, b) => order(fields.indexOf(a)) - order(fields.indexOf(b)))
  return markdownFile({ ...Object.fromEntries(names.map((n) => [n, values[n]])), body: plainText(body) })
}

/**
 * The text as Decap wrote it, with each line that says what a line of the original said written
 * as the original wrote it. Decap's Markdown editor writes the whole text anew once touched, in
 * its own style (`*` for a list item, its own escapes), so a fix of one word would otherwise show
 * as a change of every list. Lines are matched in order, by their words without Markdown's
 * marks (a longest common subsequence).
 */
function keptLines(original: string, saved: string): string {
  const a = original.split('\n')
  const b = saved.split('\n')
  const ka = a.map(lineKey)
  const kb = b.map(lineKey)
  // common[i][j]: how many lines a[i..] and b[j..] have in common, in order.
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) common[i]![j] = ka[i] === kb[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!)
  }
  const lines: string[] = []
  let i = 0
  let j = 0
  while (j < b.length) {
    if (i < a.length && ka[i] === kb[j]) { lines.push(a[i]!); i++; j++ } else if (i < a.length && common[i + 1]![j]! >= common[i]![j + 1]!) i++
    else { lines.push(b[j]!); j++ }
  }
  return lines.join('\n')
}

/** A line of Markdown as its words: '* **First week:** rest\\!' -> '- First week: rest!' */
const lineKey = (line: string) => line.trimEnd()
  .replace(/^(\s*)(?:[-*+]|\d+[.)])[ \t]+/, '$1- ')
  .replace(/\\([!-/:-@[-`{-~])/g, '$1')
  .replace(/(\*\*|__|\*|_)(?=\S)([^*_]*?\S)\1/g, '$2')

/** The blank lines a file's text starts with (the site's files leave one after the front matter). */
const leadingBlank = (body: string) => /^(?:\r?\n)*/.exec(body)![0].replace(/\r/g, '')

const withEol = (text: string, eol: '\n' | '\r\n') => (eol === '\n' ? text : text.replace(/\r?\n/g, '\r\n'))
