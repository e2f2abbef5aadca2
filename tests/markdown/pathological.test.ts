/**
 * Bodies of the shapes that make Markdown parsers slow (tests/support/pathological.ts), from 10 KB
 * to 1 MB: each is read or refused with a catalogued code, through the same pool the build uses
 * (src/render/shards.ts), under a time limit of one second per 256 KB. The limit bounds the time;
 * the outcome is what is asserted.
 */
import { describe, expect, test } from 'vitest'
import { DEFAULT_TIME_LIMIT, ShardPool } from '../../src/render/shards.ts'
import { article, CMARK_SHAPES, GFM_SHAPES, SIZES } from '../support/pathological.ts'

const FILE = 'content/en/blog/pasted.md'
type Outcome = 'built' | 'MarkdownTooDeep' | 'MarkdownTooComplex' | 'MarkdownTooSlow'

/** The outcome of reading one body, and the line its refusal names. */
async function outcomeOf(markdown: string, timeLimit = 1): Promise<{ outcome: Outcome; line?: number }> {
  const pool = new ShardPool(0)
  try {
    const facts = (await pool.analyse([{ id: FILE, markdown, bodyLine: 10 }], { timeLimit })).get(FILE)!
    const refusal = facts.diagnostics.find((d) => d.code.startsWith('Markdown'))
    return refusal ? { outcome: refusal.code as Outcome, line: refusal.line } : { outcome: 'built' }
  } finally {
    await pool.close()
  }
}

// What each shape comes to at 10 KB and more. "either": read, or stopped at the time limit (its
// parse time is near the limit on this machine kind, so either may happen).
const EXPECTED: Record<string, Outcome | 'either'> = {
  'nested strong emph': 'MarkdownTooComplex',
  'many emph closers with no openers': 'MarkdownTooComplex',
  'many emph openers with no closers': 'MarkdownTooComplex',
  'many link closers with no openers': 'either',
  'many link openers with no closers': 'MarkdownTooComplex',
  'mismatched openers and closers': 'MarkdownTooComplex',
  'issue #389': 'MarkdownTooComplex',
  'openers and closers multiple of 3': 'MarkdownTooComplex',
  'link openers and emph closers': 'MarkdownTooComplex',
  'pattern [ (]( repeated': 'MarkdownTooComplex',
  'pattern ![[]() repeated': 'MarkdownTooComplex',
  'hard link/emph case': 'built',
  'nested brackets': 'MarkdownTooComplex',
  'nested block quotes': 'MarkdownTooDeep',
  'deeply nested lists': 'MarkdownTooDeep',
  'U+0000 in input': 'built',
  'backticks': 'MarkdownTooComplex',
  'unclosed links A': 'MarkdownTooComplex',
  'unclosed links B': 'MarkdownTooComplex',
  'unclosed <!--': 'MarkdownTooComplex',
  'empty lines in deeply nested lists': 'MarkdownTooDeep',
  'empty lines in deeply nested lists in blockquote': 'MarkdownTooDeep',
  'emph in deep blockquote': 'MarkdownTooDeep',
  'reference collisions': 'either',
  'nested inlines': 'MarkdownTooComplex',
  'table': 'either',
  'table of 200 columns': 'either',
  'strikethrough in paragraphs': 'either',
  'strikethrough never closed': 'MarkdownTooComplex',
  'footnotes': 'either',
  'autolink literals': 'either',
  'autolink look-alikes': 'either',
}
/** Shapes that refuse only from some size on, below which they are read: [shape, first size refused]. */
const REFUSED_FROM: Record<string, number> = { 'pattern [ (]( repeated': 100_000, 'unclosed links A': 100_000, 'unclosed links B': 100_000 }
/** Shapes that are a fixed text, whatever the size. */
const FIXED = new Set(['hard link/emph case', 'U+0000 in input'])

describe.each(Object.entries({ ...CMARK_SHAPES, ...GFM_SHAPES }))('%s', (name, make) => {
  test.each(FIXED.has(name) ? [0] : SIZES)('at %i characters: read or refused as expected', async (size) => {
    const { outcome, line } = await outcomeOf(make(size))
    const expected = size < (REFUSED_FROM[name] ?? 0) ? 'either' : EXPECTED[name]!
    if (expected === 'either') expect(['built', 'MarkdownTooSlow']).toContain(outcome)
    else expect(outcome).toBe(expected)
    // A refusal names the line of the file where the trouble starts (the body starts on line 10).
    if (outcome !== 'built') expect(line).toBeGreaterThanOrEqual(10)
  })
})

test('an ordinary article is read at every size up to 1 MB, in the default time limit', async () => {
  for (const size of SIZES) expect((await outcomeOf(article(size), DEFAULT_TIME_LIMIT)).outcome).toBe('built')
})

test('the refusal names the line where the nesting goes too deep', async () => {
  const markdown = 'A paragraph.\n\n' + Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- item\n`).join('')
  // Line 10 is the paragraph, 12 the first item, so the 51st item is on line 62.
  expect(await outcomeOf(markdown)).toEqual({ outcome: 'MarkdownTooDeep', line: 62 })
})

test('a footnote\'s definition is a container: the quotes and lists in it count to the depth', async () => {
  const definition = (inside: string) => `A note.[^n]\n\n[^n]: ${inside}x\n`
  // The definition is on line 12 of the file.
  expect(await outcomeOf(definition('> '.repeat(10_000)))).toEqual({ outcome: 'MarkdownTooDeep', line: 12 })
  expect(await outcomeOf(definition('- '.repeat(60)))).toEqual({ outcome: 'MarkdownTooDeep', line: 12 })
  expect(await outcomeOf(definition('> '.repeat(49)))).toEqual({ outcome: 'built' })
  expect(await outcomeOf(definition('> '.repeat(50)))).toEqual({ outcome: 'MarkdownTooDeep', line: 12 })
})

test('a body that runs over the time limit is stopped and reported, and the bodies after it are still read', async () => {
  const pool = new ShardPool(0)
  try {
    // A millisecond per 256 KB: no parser reads 100 KB in that.
    const bodies = [{ id: FILE, markdown: article(100_000), bodyLine: 10 }, { id: 'content/en/blog/b.md', markdown: article(70_000), bodyLine: 8 }]
    const facts = await pool.analyse(bodies, { timeLimit: 0.001 })
    expect(facts.get(FILE)!.diagnostics).toEqual([expect.objectContaining({ code: 'MarkdownTooSlow', file: FILE, line: 10 })])
    expect(facts.get('content/en/blog/b.md')!.diagnostics).toEqual([expect.objectContaining({ code: 'MarkdownTooSlow', line: 8 })])
    const again = await pool.analyse([{ id: 'content/en/blog/c.md', markdown: article(70_000), bodyLine: 8 }], { timeLimit: DEFAULT_TIME_LIMIT })
    expect(again.get('content/en/blog/c.md')!.diagnostics).toEqual([])
  } finally {
    await pool.close()
  }
})
