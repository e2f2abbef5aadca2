/**
 * Generators for property-based tests (fast-check): valid front matter and locale files as an
 * editor could write them, and damage done to the bytes of a valid file (truncation, flipped
 * bytes, a duplicated key, tabs, deep nesting, a very long string, NUL, emoji, right-to-left text).
 * Damage is plain data, so that a failing case prints what was done and where.
 */
import fc from 'fast-check'
import { parse, parseDocument, stringify, visit, type ToStringOptions } from 'yaml'
import { DOCTORS } from './helpers.ts'
import { CMARK_SHAPES, GFM_SHAPES } from './pathological.ts'

/**
 * fast-check's options for a property: `FC_SEED` (and `FC_PATH`, for the shrunk case) from the
 * environment replay a failure that printed them; without them the seed is random. `FC_RUNS`
 * multiplies the number of cases, for a longer search than CI's.
 */
export function runOptions(numRuns: number, more: fc.Parameters<unknown> = {}): fc.Parameters<unknown> {
  const options: fc.Parameters<unknown> = { numRuns: Math.ceil(numRuns * Number(process.env.FC_RUNS ?? 1)), ...more }
  if (process.env.FC_SEED) options.seed = Number(process.env.FC_SEED)
  if (process.env.FC_PATH) options.path = process.env.FC_PATH
  return options
}

// ---------------------------------------------------------------------------------------------
// Text an editor may type into a field.

const EMOJI = ['😀', '👩‍⚕️', '🇸🇬', '👍🏽', '❤️', '🧑‍🤝‍🧑', '🏥', '1️⃣']
const RTL = ['مرحبا', 'جراحة تجميلية', 'שלום', 'ניתוח', '\u202E', '\u202B', '\u200F', '\u2067', '\u2069', '\u061C', 'abc\u202Edef']
const CJK = ['隆鼻', '双眼皮手术', '新加坡', '整形外科', '。', '，', '「', '」', '：']
/** Characters that mean something in YAML, Markdown or HTML. */
const SPECIAL = [': ', ' #', '- ', '---', '...', '[', ']', '{', '}', '"', "'", '!', '&', '*', '|', '>', '%', '@', '`', '\\', '?', ',',
  'null', 'true', '~', '0x1F', '1e3', '2026-01-05', 'yes', '<<', '<script>alert(1)</script>', '</title>', '&amp;', '"><b>', '</script>',
  '{n}', '{{x}}', '\u00A0', '\u3000', '\u200B', '\uFEFF', '\n', '\t', '\r', '\u2028']

const piece: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 1, arbitrary: fc.constantFrom(...EMOJI) },
  { weight: 1, arbitrary: fc.constantFrom(...RTL) },
  { weight: 1, arbitrary: fc.constantFrom(...CJK) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }) },
)

/** Control characters other than tab and line breaks, U+FFFE and U+FFFF: refused in YAML (ControlCharacter). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/

/** Text that is not blank: what a required text field takes. */
export function text(maxLength = 200): fc.Arbitrary<string> {
  return fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''))
    .filter((s) => s.trim() !== '' && s.trim().length <= maxLength && !CONTROL.test(s))
}

const date = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))
const doctor = fc.constantFrom(...DOCTORS)
const texts = (min: number) => fc.array(text(80), { minLength: min, maxLength: 4 })

// ---------------------------------------------------------------------------------------------
// Valid front matter.

/** The templates a page can have, and the fields each requires or allows (src/content/schemas/front-matter.ts). */
export type PageKind = 'home' | 'services' | 'service' | 'doctor' | 'contact' | 'thank-you' | 'blog-index' | 'article' | 'page'

/**
 * Front matter for a page of `kind` that its schema accepts. `extra` adds the fields only a new
 * page may set; `template: 'always'` names the template (a page whose folder implies another).
 */
export function frontMatter(kind: PageKind, extra: { slug?: boolean; draft?: boolean; template?: 'always' | 'maybe' } = {}): fc.Arbitrary<Record<string, unknown>> {
  const base = {
    title: text(),
    description: text(200),
    ...(extra.template ? { template: fc.constant(kind) } : {}),
    ...(extra.slug ? { slug: fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((s) => `generated-${s}`) } : {}),
    ...(extra.draft ? { draft: fc.boolean() } : {}),
  }
  const reviewed = { reviewedBy: doctor, reviewedOn: date }
  const optional = new Set(['slug', 'draft', 'order', 'memberships', ...(extra.template === 'maybe' ? ['template'] : [])])
  const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
    fc.record(fields, { requiredKeys: Object.keys(fields).filter((k) => !optional.has(k)) as never }) as fc.Arbitrary<Record<string, unknown>>
  switch (kind) {
    case 'home':
      // A hero image needs its alt text; the image is one the site has.
      return fc.tuple(record({ ...base, intro: text() }), fc.option(text(), { nil: undefined }))
        .map(([data, alt]) => (alt === undefined ? data : { ...data, image: '/images/arches.jpg', imageAlt: alt }))
    case 'service':
      return record({ ...base, ...reviewed, summary: text(), order: fc.integer({ min: -1000, max: 1000 }) })
    case 'doctor':
      return record({ ...base, name: text(), role: text(), qualifications: texts(1), languages: texts(1), memberships: texts(0) })
    case 'article':
      return record({ ...base, ...reviewed, date, author: doctor, tags: texts(1) })
    default:
      return record(base)
  }
}

/** How a YAML file may be laid out: quoting, folding, flow or block lists. */
export const yamlLayout: fc.Arbitrary<ToStringOptions> = fc.record({
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
  defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
  lineWidth: fc.constantFrom(0, 20, 80),
  collectionStyle: fc.constantFrom('any', 'block', 'flow'),
  indent: fc.constantFrom(2, 4),
}) as fc.Arbitrary<ToStringOptions>

/** A Markdown body of plain words (no links or images, which would have to lead somewhere). */
export const body: fc.Arbitrary<string> = fc.array(
  fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z]{1,10}$/), fc.constantFrom(...EMOJI, ...RTL.filter((r) => r.length > 1), ...CJK.slice(0, 4))), { minLength: 1, maxLength: 20 })
    .map((words) => words.join(' ')),
  { minLength: 0, maxLength: 4 },
).map((paragraphs) => paragraphs.join('\n\n'))

/** A page file: front matter laid out as `layout` says, then the body. */
export function pageFile(data: Record<string, unknown>, layout: ToStringOptions, markdown: string): string {
  return `---\n${yamlOf(data, layout)}---\n\n${markdown}\n`
}

/**
 * `data` as YAML laid out as `layout` says, as near to it as yaml's stringify writes faithfully:
 * yaml 2.9 can change what a file means, so each layout is read back and the next one tried. In a
 * flow list it writes a plain text ending in ":" before a line break as it is, which reads back as a
 * key and its value; folding Chinese text at 20 columns it has added a line break, or the word
 * "undefined", to the text.
 */
export function yamlOf(data: unknown, layout: ToStringOptions): string {
  // As JSON: fast-check's records have no prototype, and the data holds text, numbers and lists alone.
  const wanted = JSON.stringify(data)
  const means = (text: string) => { try { return JSON.stringify(parse(text)) === wanted } catch { return false } }
  const nearest = [layout, { ...layout, defaultStringType: 'QUOTE_DOUBLE' }, { ...layout, lineWidth: 0 }, { ...layout, defaultStringType: 'QUOTE_DOUBLE', lineWidth: 0 }] as const
  for (const candidate of nearest) {
    const text = stringify(data, candidate)
    if (means(text)) return text
  }
  throw new Error(`no layout near ${JSON.stringify(layout)} reads back as ${wanted}`)
}

/** A page's body: what follows its front matter. */
export function bodyOf(page: string): string {
  return page.replace(/^---\n[\s\S]*?\n---\n/, '')
}

// ---------------------------------------------------------------------------------------------
// Valid locale files.

/** The dotted paths of every text value in a locale file. */
export function messageKeys(yamlText: string): string[] {
  const keys: string[] = []
  const walk = (value: unknown, path: string[]) => {
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
    else if (typeof value === 'string') keys.push(path.join('.'))
  }
  walk(parseDocument(yamlText).toJS(), [])
  return keys
}

/** A locale file with the same keys as `yamlText`, some of its messages replaced with new text, laid out afresh. */
export function localeFile(yamlText: string): fc.Arbitrary<string> {
  const keys = messageKeys(yamlText)
  return fc.tuple(fc.array(fc.tuple(fc.constantFrom(...keys), text()), { maxLength: 10 }), yamlLayout, fc.boolean()).map(([changes, layout, relayout]) => {
    const doc = parseDocument(yamlText)
    for (const [key, value] of changes) doc.setIn(key.split('.'), value)
    if (!relayout) return doc.toString()
    // Comments are dropped with the old layout.
    visit(doc, { Node: (_, node) => { (node as { comment?: string; commentBefore?: string }).comment = undefined; (node as { commentBefore?: string }).commentBefore = undefined } })
    return yamlOf(doc.toJS(), layout)
  })
}

// ---------------------------------------------------------------------------------------------
// Damage to a valid file.

/** Where in a file: a byte offset from its start (front matter is there), or a fraction of its length. */
export type Place = { offset: number } | { fraction: number }

export type Damage =
  | { kind: 'truncate'; at: Place }
  | { kind: 'flip'; at: Place; mask: number }
  | { kind: 'duplicate key'; line: number; value?: string }
  | { kind: 'tab'; line: number; how: 'indent' | 'spaces to tabs' | 'after colon' }
  | { kind: 'deep nesting'; line: number; depth: number; style: 'flow list' | 'flow map' | 'block map' | 'block list' | 'quote' }
  | { kind: 'long string'; at: Place; length: number; unit: string }
  | { kind: 'NUL'; at: Place }
  | { kind: 'emoji'; at: Place; emoji: string }
  | { kind: 'right to left'; at: Place; text: string }
  | { kind: 'pasted markdown'; shape: string; size: number; fraction: number }

const place: fc.Arbitrary<Place> = fc.oneof(
  fc.record({ offset: fc.nat({ max: 400 }) }),
  fc.record({ fraction: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }) }),
)
const line = fc.nat({ max: 1000 })

/**
 * One kind of damage; `truncate`, `flip` and `NUL` work on bytes, the others on text. A duplicated
 * key, a tab and deep nesting go into the YAML (a page's front matter); the rest anywhere.
 */
export const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('truncate'), at: place }),
  fc.record({ kind: fc.constant('flip'), at: place, mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('duplicate key'), line, value: fc.option(text(40), { nil: undefined }) }, { requiredKeys: ['kind', 'line'] }),
  fc.record({ kind: fc.constant('tab'), line, how: fc.constantFrom('indent', 'spaces to tabs', 'after colon') }),
  fc.record({
    kind: fc.constant('deep nesting'), line,
    // The YAML parser gives up at about 1000 levels (InvalidYaml).
    depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constantFrom(500, 2000, 10_000)),
    style: fc.constantFrom('flow list', 'flow map', 'block map', 'block list', 'quote'),
  }),
  // Not 100 000 characters yet: a message that long takes minutes to draw into a sharing image.
  fc.record({ kind: fc.constant('long string'), at: place, length: fc.constantFrom(1000, 10_000), unit: fc.constantFrom('a', 'ab ', '隆', '😀', 'مرحبا ', '\\', '"') }),
  fc.record({ kind: fc.constant('NUL'), at: place }),
  fc.record({ kind: fc.constant('emoji'), at: place, emoji: fc.constantFrom(...EMOJI) }),
  fc.record({ kind: fc.constant('right to left'), at: place, text: fc.constantFrom(...RTL) }),
  // A paragraph of a shape that makes Markdown parsers slow (tests/support/pathological.ts), pasted into a body.
  fc.record({
    kind: fc.constant('pasted markdown'), shape: fc.constantFrom(...Object.keys(CMARK_SHAPES), ...Object.keys(GFM_SHAPES)),
    size: fc.constantFrom(2_000, 20_000), fraction: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
  }),
) as fc.Arbitrary<Damage>

/** One to three kinds of damage, done in turn. */
export const damages: fc.Arbitrary<Damage[]> = fc.array(damage, { minLength: 1, maxLength: 3 })

const positionIn = (at: Place, length: number) =>
  Math.min(length, 'offset' in at ? at.offset : Math.floor(at.fraction * length))

/** `bytes` with every damage in `list` done to it, in turn. */
export function damaged(bytes: Buffer, list: Damage[]): Buffer {
  return list.reduce(damageOnce, bytes)
}

function damageOnce(bytes: Buffer, d: Damage): Buffer {
  switch (d.kind) {
    case 'truncate':
      return bytes.subarray(0, positionIn(d.at, bytes.length))
    case 'flip': {
      if (bytes.length === 0) return bytes
      const copy = Buffer.from(bytes)
      const i = Math.min(positionIn(d.at, bytes.length), bytes.length - 1)
      copy[i] = copy[i]! ^ d.mask
      return copy
    }
    case 'NUL': {
      // Into the bytes: it may land inside a character, as a bad save would put it.
      const i = positionIn(d.at, bytes.length)
      return Buffer.concat([bytes.subarray(0, i), Buffer.from([0]), bytes.subarray(i)])
    }
    default:
      return Buffer.from(damageText(bytes.toString('utf8'), d))
  }
}

/** Damage done to the text (after a flip or a truncation the text may hold U+FFFD, as an editor would show it). */
function damageText(text: string, d: Exclude<Damage, { kind: 'truncate' | 'flip' | 'NUL' }>): string {
  const lines = text.split('\n')
  // The YAML: a page's front matter, up to its closing ---, even when damage took its opening
  // line (the body after it is Markdown); or the whole of a locale file.
  const end = lines.indexOf('---', 1)
  const yaml = [lines[0] === '---' ? 1 : 0, end === -1 ? lines.length : end]
  /** The n-th line of the YAML that holds a key, or the n-th line when none does. */
  const keyLine = (n: number) => {
    const keyed = lines.flatMap((l, i) => (i >= yaml[0]! && i < yaml[1]! && /^\s*[^\s#:][^:]*:( |$)/.test(l) ? [i] : []))
    return keyed.length ? keyed[n % keyed.length]! : Math.min(yaml[0]! + (n % Math.max(1, yaml[1]! - yaml[0]!)), lines.length - 1)
  }
  const insert = (at: Place, what: string) => {
    let i = positionIn(at, text.length)
    // Not between the two halves of a character outside the BMP.
    if (/[\uDC00-\uDFFF]/.test(text[i] ?? '')) i--
    return text.slice(0, i) + what + text.slice(i)
  }
  switch (d.kind) {
    case 'duplicate key': {
      const i = keyLine(d.line)
      const copy = d.value === undefined ? lines[i]! : lines[i]!.replace(/:( .*)?$/, `: ${JSON.stringify(d.value)}`)
      return [...lines.slice(0, i + 1), copy, ...lines.slice(i + 1)].join('\n')
    }
    case 'tab': {
      const i = keyLine(d.line)
      const l = lines[i]!
      lines[i] = d.how === 'indent' ? `\t${l}` : d.how === 'spaces to tabs' ? l.replace(/^( +)/, (s) => '\t'.repeat(Math.max(1, s.length / 2))) : l.replace(/: /, ':\t')
      return lines.join('\n')
    }
    case 'deep nesting': {
      const i = keyLine(d.line)
      const [, indent = '', key = 'deep'] = /^(\s*)([^\s:][^:]*):/.exec(lines[i]!) ?? []
      const n = d.depth
      const nested = d.style === 'flow list' ? `${'['.repeat(n)}x${']'.repeat(n)}`
        : d.style === 'flow map' ? `${'{a: '.repeat(n)}x${'}'.repeat(n)}`
          : d.style === 'quote' ? `${'> '.repeat(n)}x`
            : Array.from({ length: Math.min(n, 200) }, (_, k) => `\n${indent}${'  '.repeat(k + 1)}${d.style === 'block list' ? '- ' : 'a: '}`).join('') + 'x'
      lines[i] = `${indent}${key}: ${nested}`
      return lines.join('\n')
    }
    case 'long string':
      return insert(d.at, d.unit.repeat(Math.ceil(d.length / d.unit.length)))
    case 'emoji':
      return insert(d.at, d.emoji)
    case 'right to left':
      return insert(d.at, d.text)
    case 'pasted markdown': {
      // Between two lines of the body (of the whole text when it has no front matter), as a paragraph of its own.
      const i = yaml[1]! + 1 + Math.floor(d.fraction * Math.max(0, lines.length - yaml[1]! - 1))
      const pasted = (CMARK_SHAPES[d.shape] ?? GFM_SHAPES[d.shape]!)(d.size)
      return [...lines.slice(0, i), '', pasted, '', ...lines.slice(i)].join('\n')
    }
  }
}
