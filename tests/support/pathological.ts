/**
 * Markdown of the shapes that make CommonMark parsers slow, after the cases of cmark's own list
 * (test/pathological_tests.py in commonmark/cmark), and the GFM constructs, each made to about a
 * given number of characters. Written here from the shapes' descriptions.
 */

/** `unit` repeated until the text is about `size` characters long. */
const upTo = (unit: string, size: number) => unit.repeat(Math.max(1, Math.round(size / unit.length)))
/** `open` repeated, then `middle`, then `close` as many times: about `size` characters. */
const around = (open: string, middle: string, close: string, size: number) => {
  const n = Math.max(1, Math.round(size / (open.length + close.length)))
  return open.repeat(n) + middle + close.repeat(n)
}
/** Lines made by `line(i)` for i = 0, 1, 2 … until the text is about `size` characters long. */
const lines = (line: (i: number) => string, size: number) => {
  const out: string[] = []
  for (let i = 0, length = 0; length < size; i++) { const next = line(i); out.push(next); length += next.length }
  return out.join('')
}

/** cmark's cases, by its names. */
export const CMARK_SHAPES: Record<string, (size: number) => string> = {
  'nested strong emph': (size) => around('*a **a ', 'b', ' a** a*', size),
  'many emph closers with no openers': (size) => upTo('a_ ', size),
  'many emph openers with no closers': (size) => upTo('_a ', size),
  'many link closers with no openers': (size) => upTo('a]', size),
  'many link openers with no closers': (size) => upTo('[a', size),
  'mismatched openers and closers': (size) => upTo('*a_ ', size),
  'issue #389': (size) => upTo('*a ', size / 2) + upTo('_a*_ ', size / 2),
  'openers and closers multiple of 3': (size) => 'a**b' + upTo('c* ', size),
  'link openers and emph closers': (size) => upTo('[ a_', size),
  'pattern [ (]( repeated': (size) => upTo('[ (](', size),
  'pattern ![[]() repeated': (size) => upTo('![[]()', size),
  'hard link/emph case': () => '**x [a*b**c*](d)',
  'nested brackets': (size) => around('[', 'a', ']', size),
  'nested block quotes': (size) => upTo('> ', size) + 'a',
  'deeply nested lists': (size) => lines((i) => `${'  '.repeat(i)}* a\n`, size),
  'U+0000 in input': () => 'abc\u0000de\u0000',
  'backticks': (size) => lines((i) => `e${'`'.repeat(i + 1)}`, size),
  'unclosed links A': (size) => upTo('[a](<b', size),
  'unclosed links B': (size) => upTo('[a](b', size),
  'unclosed <!--': (size) => '</' + upTo('<!--', size),
  'empty lines in deeply nested lists': (size) => upTo('- ', size / 2) + 'x' + '\n'.repeat(size / 2),
  'empty lines in deeply nested lists in blockquote': (size) => '> ' + upTo('- ', size / 2) + 'x\n' + upTo('>\n', size / 2),
  'emph in deep blockquote': (size) => upTo('>', size / 2) + upTo('a*', size / 2),
  'reference collisions': (size) => lines((i) => `[x${i}]: /url\n\n[x0]\n\n`, size),
  'nested inlines': (size) => around('*', 'a', '*', size),
}

/** The GFM constructs, well formed and not. */
export const GFM_SHAPES: Record<string, (size: number) => string> = {
  'table': (size) => '| a | b | c |\n|---|:-:|--:|\n' + upTo('| **x** 1 | `y` | [z](https://example.sg/) |\n', size),
  'table of 200 columns': (size) => `|${' h |'.repeat(200)}\n|${'---|'.repeat(200)}\n` + upTo(`|${' c |'.repeat(200)}\n`, size),
  'strikethrough in paragraphs': (size) => upTo('Some ~~struck~~ text and ~one~ more.\n\n', size),
  'strikethrough never closed': (size) => upTo('~~a ', size),
  'footnotes': (size) => {
    const n = Math.max(1, Math.round(size / 40))
    return lines((i) => `Text[^n${i}] more.\n\n`, size / 2) + lines((i) => `[^n${i % n}]: Note ${i}.\n\n`, size / 2)
  },
  'autolink literals': (size) => upTo('See www.example.com/path, https://example.sg/a?b=c or me@example.com.\n\n', size),
  'autolink look-alikes': (size) => upTo('www.a.b@c.d:// ', size),
}

/**
 * An ordinary long article: per 10 KB a heading, a dozen paragraphs with emphasis, code and
 * links, a list, a quote, a table and a code block.
 */
export function article(size: number): string {
  const paragraph = 'A paragraph with *emphasis*, **strong**, `code` and a [link](/contact/), about the recovery after eyelid '
    + 'surgery. It runs on for a while, as the paragraphs of an article do, with ~~a correction~~ now and then, and '
    + 'says what to ask at the first consultation, what to bring, and how the days after it usually go.\n\n'
  const section = `## A heading\n\n${paragraph.repeat(6)}- one item\n- two *items*\n  - a nested one\n\n${paragraph.repeat(6)}`
    + '> A quote from a patient.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = a_b * c_d[0]\n```\n\n'
  return upTo(section, size)
}

export const SIZES = [10_000, 100_000, 1_000_000]
