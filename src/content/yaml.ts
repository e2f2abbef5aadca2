/** YAML parsing that remembers where each value came from, so messages can name line and column. */
import type * as Yaml from 'yaml'
import { problem } from '../errors.ts'
import { onFirstUse } from '../util/on-first-use.ts'
import type { Diagnostic } from '../types.ts'

const yaml = onFirstUse<typeof Yaml>('yaml')

export interface Position { line: number; column: number }

export interface ParsedYaml {
  data: unknown
  /** Where the value at `path` starts (its key, with `{ key: true }`); the nearest existing parent when it is absent. */
  locate(path: readonly PropertyKey[], options?: { key?: boolean }): Position
}

/**
 * Parses YAML that starts at `firstLine` of `file` (front matter starts on line 2).
 * Returns the value and a locator, or the parse errors as diagnostics.
 */
export function parseYaml(text: string, file: string, firstLine = 1): ParsedYaml | Diagnostic[] {
  const { isMap, isScalar, LineCounter, parseDocument, visit } = yaml()
  const lineCounter = new LineCounter()
  let doc: Yaml.Document.Parsed
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  } catch (error) {
    // Deep enough, nesting runs past the parser's own guard and out of its stack (seen on Node 24).
    if (error instanceof RangeError) return [problem('InvalidYaml', ['the values are nested too deeply.'], { file, line: firstLine, column: 1 })]
    throw error
  }
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(offset)
    return { line: p.line + firstLine - 1, column: p.col }
  }
  // A control character is reported first, at its own place: it is often what broke the YAML.
  const raw = CONTROL.exec(text)
  if (raw) return [controlCharacter(raw[0], file, at(raw.index))]
  // Only the first error: the ones after it are mostly consequences of it.
  const [first] = doc.errors
  if (first) {
    // The parser reports nesting deeper than its stack allows as "Maximum call stack size exceeded".
    const tooDeep = first.code === 'RESOURCE_EXHAUSTION' && first.message.startsWith('Maximum call stack')
    return [problem('InvalidYaml', [tooDeep ? 'the values are nested too deeply.' : first.message.split('\n')[0]!], { file, ...at(first.pos[0]) })]
  }
  // Written as an escape in double quotes ("\x13"), a control character is only in the value.
  let escaped: Diagnostic | undefined
  visit(doc, {
    Scalar: (_, node) => {
      const found = typeof node.value === 'string' ? CONTROL.exec(node.value) : null
      if (!found) return undefined
      escaped = controlCharacter(found[0], file, at(node.range?.[0] ?? 0))
      return visit.BREAK
    },
  })
  if (escaped) return [escaped]
  // The parser leaves aliases to the conversion below, which throws on one whose anchor comes
  // later or never, and on aliases that repeat a value past its limit (a "billion laughs"). A text
  // without "*" has none: most front matter is not walked a second time.
  const { firstAlias, unsetAlias } = text.includes('*') ? aliases(doc, visit) : {}
  if (unsetAlias) {
    const name = unsetAlias.source
    return [problem('InvalidYaml', [`the alias *${name} names no anchor set before it (&${name}).`], { file, ...at(unsetAlias.range?.[0] ?? 0) })]
  }
  const locate = (path: readonly PropertyKey[], { key = false } = {}): Position => {
    const parent = key ? doc.getIn(path.slice(0, -1) as unknown[], true) ?? doc.contents : undefined
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === path.at(-1)) : undefined
    if (isScalar(pair?.key) && pair.key.range) return at(pair.key.range[0])
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined
      if (node?.range) return at(node.range[0])
    }
    return { line: firstLine, column: 1 }
  }
  let data: unknown
  try {
    data = doc.toJS()
  } catch (error) {
    if (!(error instanceof ReferenceError) || !firstAlias) throw error
    return [problem('InvalidYaml', ['its aliases repeat values more times than a site file needs.'], { file, ...at(firstAlias.range?.[0] ?? 0) })]
  }
  return { data: data ?? {}, locate }
}

/** The document's first alias, and the first that names no anchor set before it. */
function aliases(doc: Yaml.Document, visit: typeof Yaml.visit): { firstAlias?: Yaml.Alias; unsetAlias?: Yaml.Alias } {
  const anchors = new Set<string>()
  const found: { firstAlias?: Yaml.Alias; unsetAlias?: Yaml.Alias } = {}
  visit(doc, (_, node) => {
    if (yaml().isAlias(node)) {
      found.firstAlias ??= node
      if (anchors.has(node.source)) return undefined
      found.unsetAlias = node
      return visit.BREAK
    }
    const anchor = (node as { anchor?: string } | null)?.anchor // an empty document visits null
    if (anchor) anchors.add(anchor)
    return undefined
  })
  return found
}

/**
 * Characters that XML 1.0 forbids: control characters other than tab and line breaks, U+FFFE and
 * U+FFFF. An editor shows none of them, and text holding one cannot go into the SVG of a sharing
 * image (the image library refuses it) or the Atom feed.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/

function controlCharacter(char: string, file: string, at: Position): Diagnostic {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
  return problem('ControlCharacter', [code], { file, ...at })
}

/** Turns a schema issue into "is required", "must be text, got a number" and the like. */
export function describeIssue(issue: { code: string; message: string; path: PropertyKey[]; expected?: unknown; keys?: string[] }, value: unknown): { field: string; problem: string } {
  const field = issue.path.map(String).join('.') || '(top level)'
  if (issue.code === 'unrecognized_keys') {
    return { field, problem: 'is not a known field (a typing mistake?)' }
  }
  if (issue.code === 'invalid_type') {
    if (value === undefined) return { field, problem: 'is required' }
    return { field, problem: `must be ${article(String(issue.expected))}, got ${describe(value)}` }
  }
  return { field, problem: issue.message.replace(/^Invalid input: /, 'is invalid: ').replace(/^(?!is )/, 'is invalid: ') }
}

function article(type: string): string {
  const words: Record<string, string> = { string: 'text', number: 'a number', boolean: 'true or false', array: 'a list', object: 'a set of fields' }
  return words[type] ?? type
}

function describe(value: unknown): string {
  if (value === null) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  return article(typeof value)
}

/** Reads the value at a path, for describing what was found there. */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, k) => (v != null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), data)
}
