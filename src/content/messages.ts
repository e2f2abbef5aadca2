/**
 * Locale message files (locales/<messages>.yaml): nested YAML flattened to dotted keys. Every
 * locale must define the same keys, and every key a template asks for must exist.
 */
import { problem } from '../errors.ts'
import type { Diagnostic, Messages, SiteConfig, SourceFile } from '../types.ts'
import { parseYaml, type ParsedYaml } from './yaml.ts'

export function loadMessages(files: SourceFile[], site: SiteConfig): { messages: Record<string, Messages>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  const parsed = new Map<string, { file: string; yaml: ParsedYaml; flat: Messages }>()
  for (const locale of site.locales) {
    const path = `locales/${locale.messages}.yaml`
    const file = files.find((f) => f.path === path)
    if (!file) { diagnostics.push(problem('MissingFile', [`The message file ${path} for locale "${locale.code}"`], { file: path })); continue }
    if (file.problem) { diagnostics.push(file.problem); continue }
    const yaml = parseYaml(file.text, path)
    if (Array.isArray(yaml)) { diagnostics.push(...yaml); continue }
    const flat: Messages = {}
    flatten(yaml.data, [], flat, (key) => diagnostics.push(problem('InvalidYaml', [`"${key}" must be text`], { file: path, ...yaml.locate(key.split('.')) })))
    parsed.set(locale.code, { file: path, yaml, flat })
  }
  diagnostics.push(...crossCheck([...parsed.values()]))
  const messages = Object.fromEntries([...parsed].map(([code, p]) => [code, p.flat]))
  return { messages, diagnostics }
}

/** { nav: { home: 'Home' } } -> { 'nav.home': 'Home' } */
function flatten(value: unknown, prefix: string[], out: Messages, notText: (key: string) => void): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, [...prefix, k], out, notText)
  } else if (typeof value === 'string') {
    out[prefix.join('.')] = value
  } else if (value != null && prefix.length > 0) {
    notText(prefix.join('.'))
  }
}

function crossCheck(sets: { file: string; yaml: ParsedYaml; flat: Messages }[]): Diagnostic[] {
  const found: Diagnostic[] = []
  for (const set of sets) {
    for (const other of sets) {
      for (const key of Object.keys(other.flat)) {
        if (key in set.flat) continue
        const at = other.yaml.locate(key.split('.'))
        found.push(problem('MissingMessage', [key, `${other.file}:${at.line}`], { file: set.file }))
      }
    }
  }
  return found
}

/**
 * The message keys each template asks for with a literal `t('key')`, checked against the
 * locales. Keys built at run time are checked when the page renders.
 */
export function checkTemplateKeys(templates: SourceFile[], messages: Record<string, Messages>): Diagnostic[] {
  const known = new Set(Object.values(messages).flatMap((m) => Object.keys(m)))
  const found: Diagnostic[] = []
  for (const file of templates) {
    file.text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/\bt\(\s*(['"])([\w.-]+)\1/g)) {
        if (!known.has(m[2]!)) found.push(problem('UnknownMessage', [m[2]!], { file: file.path, line: i + 1, column: m.index + 1 }))
      }
    })
  }
  return found
}

/** A translator for one locale: `{name}` placeholders are filled from `vars`. */
export function translator(messages: Messages, onMissing: (key: string) => void) {
  return (key: string, vars: Record<string, string | number> = {}): string => {
    const text = messages[key]
    if (text === undefined) { onMissing(key); return key }
    return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`))
  }
}
