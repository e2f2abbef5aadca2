/**
 * The advertising-compliance linter: what Singapore's rules on clinic advertising forbid a clinic's
 * website to say, as the rules in src/compliance/rules.yaml. It reads Markdown (body and front
 * matter), YAML message and configuration files, image names and the JSON-LD of built pages.
 * Pure: the rules are the package's own data, read once when the module loads.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isPair, isScalar, parse, parseDocument, visit, type Scalar } from 'yaml'
import { srcDir } from '../util/package.ts'
import { hashOf, oncePer, oncePerKey } from '../util/memo.ts'
import { judgeNow, type Remember } from './cache.ts'
import type { Diagnostic, SiteConfig, SourceFile } from '../types.ts'
import { lineColumn } from './html.ts'

export interface ComplianceInput {
  /** content/**\/*.md and content/site.yaml and locales/*.yaml, as read: { path: 'content/en/index.md', text } (paths relative to the site root) */
  sources: SourceFile[]
  /** files under static/, relative to static/, e.g. 'images/hero.jpg' */
  staticFiles: string[]
  /** images under content/, relative to content/, e.g. 'en/blog/timeline.png' */
  contentImages?: string[]
  /** the validated site configuration: doctors[] with slug, register ('specialist' or not), specialty */
  site: SiteConfig
  /** built pages, for structured data: { path: 'cn/contact/index.html', html }, with the HTML's hash when known */
  pages: { path: string; html: string; hash?: string; source?: { text: string } }[]
}

/** A rule as written in rules.yaml (see the comment at its top). */
interface RuleEntry {
  severity: Diagnostic['severity']
  basis: string
  message: string
  reads?: Target
  en?: string[]
  zh?: string[]
  near?: string[]
  unless?: string[]
  hosts?: string[]
  allowedForSpecialists?: boolean
}

const TARGETS = ['text', 'images', 'links'] as const
type Target = typeof TARGETS[number]
type RulesByTarget = Record<Target, Rule[]>

interface Rule extends Pick<RuleEntry, 'severity' | 'basis' | 'message'> {
  id: string
  /** Its place in rules.yaml: findings at the same place are listed in this order. */
  order: number
  reads: Target
  pattern: RegExp
  /** Its patterns: those that keep to word boundaries, and those matched anywhere. */
  words: string[]
  anywhere: string[]
  near?: RegExp
  unless?: RegExp
  allowedForSpecialists: boolean
}

/** Some text of a file that a kind of rule reads, and the offset in the file where it starts. */
interface Span { text: string; at: number }
type Targets = Record<Target, Span[]>

interface Finding { rule: Rule; words: string; at: number }

interface Allow { rule: string; reason: string; line: number; column: number; used: boolean }

// English words may not touch a Latin letter, so "sale" does not match "wholesale"; digits and
// "_" do not count, so image names such as "after_2.jpg" match.
const english = (patterns: string[]) => `(?<![A-Za-z])(?:${patterns.join('|')})(?![A-Za-z])`
const anyOf = (patterns: string[]) => patterns.map((p) => `(?:${p})`).join('|')
/** A whole address on one of `hosts` or their subdomains. */
const hostPattern = (hosts: string[]) => `^(?:https?://)?(?:[^/?#\\s]*\\.)?(?:${hosts.map((h) => h.replace(/\./g, '\\.')).join('|')})(?:[/?#:]\\S*)?$`

function compile(id: string, entry: RuleEntry, order: number): Rule {
  const reads = entry.reads ?? 'text'
  // Addresses are matched whole; in text, English patterns keep to word boundaries and Chinese ones match anywhere.
  const { words, anywhere } = reads === 'links' ? { words: [], anywhere: [...entry.en ?? [], ...entry.hosts ? [hostPattern(entry.hosts)] : []] }
    : byScript([...entry.en ?? [], ...entry.zh ?? []])
  const context = (patterns?: string[]) => patterns && new RegExp(alternatives(byScript(patterns)), 'i')
  return {
    id, order, reads, severity: entry.severity, basis: entry.basis, message: entry.message,
    pattern: new RegExp(alternatives({ words, anywhere }), 'gi'), words, anywhere,
    near: context(entry.near), unless: context(entry.unless), allowedForSpecialists: entry.allowedForSpecialists ?? false,
  }
}

function byScript(patterns: string[]): { words: string[]; anywhere: string[] } {
  const isChinese = (p: string) => /\p{Script=Han}/u.test(p)
  return { words: patterns.filter((p) => !isChinese(p)), anywhere: patterns.filter(isChinese) }
}

const alternatives = ({ words, anywhere }: { words: string[]; anywhere: string[] }) =>
  [words.length ? english(words) : '', anyOf(anywhere)].filter(Boolean).join('|')

const rules: Rule[] = Object.entries(parse(readFileSync(join(srcDir, 'compliance/rules.yaml'), 'utf8')) as Record<string, RuleEntry>)
  .map(([id, entry], order) => compile(id, entry, order))
const testimonial = rules.find((r) => r.id === 'TESTIMONIAL')!

/** `remember` answers for a source or page judged before under the same rules (check/cache.ts). */
export function lintCompliance(input: ComplianceInput, remember: Remember = judgeNow): Diagnostic[] {
  const specialists = allSpecialists(input.site)
  const applying = rules.filter((r) => !(r.allowedForSpecialists && specialists))
  const active = Object.fromEntries(TARGETS.map((t) => [t, applying.filter((r) => r.reads === t)])) as RulesByTarget
  const imageRules = active.images
  // A value that stands in a source is reported there: most stand in the page's own Markdown, and
  // the rest (the site's name, say) on every page, so the sources are searched once for each.
  const inSources = oncePerKey((value: string) => input.sources.some((s) => s.text.includes(value)))
  // Most values in structured data (the clinic's name, address, doctors) stand on every page alike.
  const inValue = oncePerKey((raw: string) => valueFindings(raw, active))
  const data = input.pages.flatMap((page) => remember(`compliance data ${specialists} ${page.hash ?? hashOf(page.html)}`, () => lintStructuredData(page, inValue))
    .filter((found) => found.value === undefined || !(page.source?.text.includes(found.value) || inSources(found.value))))
  return [
    ...input.sources.flatMap((file) => remember(`compliance ${specialists} ${hashOf(file.path, file.text)}`, () => lintSource(file, active))),
    ...input.staticFiles.filter(isImageName).flatMap((name) => find(imageRules, { text: name, at: 0 })
      .map((f) => diagnostic(f, { file: `static/${name}` }))),
    ...(input.contentImages ?? []).flatMap((name) => find(imageRules, { text: name, at: 0 })
      .map((f) => diagnostic(f, { file: `content/${name}` }))),
    ...data.map((found) => found.diagnostic),
  ]
}

/** The site configuration is where registration is declared: titles follow from it. */
const allSpecialists = (site: SiteConfig) => site.doctors.every((d) => d.register === 'specialist' && !!d.specialty?.trim())

function lintSource(file: SourceFile, active: RulesByTarget): Diagnostic[] {
  const targets = file.path.endsWith('.md') ? markdownTargets(file.text) : yamlTargets(file.text, 0)
  const findings = TARGETS.flatMap((target) => targets[target].flatMap((span) => find(active[target], span)))
  return applyAllows(file, findings.sort((a, b) => a.at - b.at || a.rule.order - b.rule.order))
}

/**
 * One pattern that matches where any of `rules` does: most text matches none, and one search of
 * it costs less than a search per rule. The word boundaries are looked at once for all the rules'
 * English words, not once for each rule: half the time.
 */
const screenOf = oncePer((rules: Rule[]) => new RegExp(alternatives({ words: rules.flatMap((r) => r.words), anywhere: rules.flatMap((r) => r.anywhere) }), 'i'))

function find(applying: Rule[], span: Span): Finding[] {
  if (!screenOf(applying).test(span.text)) return []
  // A Chinese price pattern may begin with optional spaces: they are not part of the words found.
  return applying.flatMap((rule) => [...span.text.matchAll(rule.pattern)]
    .filter((m) => m[0].trim() && inContext(rule, span.text, m.index, m.index + m[0].length))
    .map((m) => ({ rule, words: m[0].trim(), at: span.at + m.index + m[0].length - m[0].trimStart().length })))
}

function inContext(rule: Rule, text: string, start: number, end: number): boolean {
  if (!rule.near && !rule.unless) return true
  const sentence = sentenceAround(text, start, end)
  return (!rule.near || rule.near.test(sentence)) && !rule.unless?.test(sentence)
}

/** The sentence (or line) around a match: the context that `near` and `unless` look at. */
function sentenceAround(text: string, start: number, end: number): string {
  const stops = [...text.matchAll(/[.!?](?=\s|$)|[。！？；;\n]/g)].map((m) => m.index)
  const from = Math.max(-1, ...stops.filter((i) => i < start)) + 1
  return text.slice(from, Math.min(text.length, ...stops.filter((i) => i >= end)))
}

// ---- What each kind of file holds --------------------------------------------------------

// Each begins where a run of its characters does: a search from inside a long run (Chinese has
// no spaces) would scan to the run's end at every character, and could only find the same match.
const IMAGE = /(?<![^\s()<>"'[\]])[^\s()<>"'[\]]+\.(?:jpe?g|png|webp|gif|avif|svg)(?=[\s)"'?#]|$)/gi
const URL_OR_ADDRESS = /(?:https?:\/\/|www\.)[^\s)<>"'\]]+/gi
const isImageName = (name: string) => new RegExp(`^${IMAGE.source}$`, 'i').test(name)
const isAddress = (value: string) => /^(?:[a-z][a-z+]*:|\/|www\.)\S*$|^[^\s@]+@[^\s@]+$/i.test(value.trim())

/** Blanks out matches of `pattern`, keeping every offset (and line break) where it was. */
const blank = (text: string, pattern: RegExp) => text.replace(pattern, spaces)
// Spaces made whole, a line at a time: a search and replace of every character cost a tenth of the advertising rules' time.
const spaces = (text: string) => (text.includes('\n') ? text.split('\n').map((line) => ' '.repeat(line.length)).join('\n') : ' '.repeat(text.length))

/** Addresses are not prose: "sales@clinic.sg" is no promotion. */
const prose = (text: string) => blank(blank(text, URL_OR_ADDRESS), /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w)])\/[\w./%-]+/g)

const spansOf = (text: string, pattern: RegExp, group = 0): Span[] =>
  [...text.matchAll(pattern)].map((m) => ({ text: m[group]!, at: m.index + m[0].indexOf(m[group]!) }))

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?=\r?\n|$)/

function markdownTargets(text: string): Targets {
  const frontMatter = FRONT_MATTER.exec(text)
  const meta = frontMatter ? yamlTargets(frontMatter[1]!, text.indexOf('\n') + 1) : { text: [], images: [], links: [] }
  // Code and comments are not read by visitors; link addresses and tags are not prose.
  const visible = [FRONT_MATTER, /^(```|~~~)[\s\S]*?^\1/gm, /<!--[\s\S]*?-->/g, /`[^`\n]+`/g].reduce(blank, text)
  const body = [/\]\([^)]*\)/g, /^ {0,3}\[[^\]]+\]:.*$/gm, /<\/?[A-Za-z][^>]*>/g].reduce(blank, visible)
  return {
    text: [...meta.text, { text: prose(body), at: 0 }],
    images: [...meta.images, ...spansOf(visible, IMAGE), ...spansOf(visible, /!\[([^\]]*)\]/g, 1)],
    links: [...meta.links, ...spansOf(visible, URL_OR_ADDRESS)],
  }
}

/** String values (not keys) of a YAML text that starts at offset `base` of its file, as written. */
function yamlTargets(text: string, base: number): Targets {
  const targets: Targets = { text: [], images: [], links: [] }
  visit(parseDocument(text), {
    Scalar(key, node: Scalar, path) {
      const pair = path.at(-1)
      const field = isPair(pair) && isScalar(pair.key) ? String(pair.key.value) : ''
      // `register` declares a doctor's registration: it is what allows a title, not a claim.
      if (key === 'key' || typeof node.value !== 'string' || !node.range || field === 'register') return
      const span = { text: text.slice(node.range[0], node.range[1]), at: base + node.range[0] }
      if (isAddress(node.value)) {
        // The address itself, without quotes, so that a pattern can match it whole.
        const address = { text: node.value, at: span.at + Math.max(0, span.text.indexOf(node.value)) }
        targets[isImageName(node.value) ? 'images' : 'links'].push(address)
        return
      }
      targets.text.push({ ...span, text: prose(span.text) })
      if (/alt$/i.test(field)) targets.images.push(span)
    },
  })
  return targets
}

/**
 * Findings in the JSON-LD of a built page, each with the text value it was found in (none for a
 * review's type). Values copied from a source were linted there, where an allow comment can
 * justify them; here only words the templates add are read, and the types Google shows as review
 * stars. `inValue` judges each distinct value once for all pages.
 */
function lintStructuredData(page: ComplianceInput['pages'][number], inValue: (raw: string) => ValueFindings): { value?: string; diagnostic: Diagnostic }[] {
  const findings: (Finding & { value?: string })[] = []
  // The build writes JSON-LD as <script type="application/ld+json">, whose text holds no "<" (JSON escapes it).
  for (const script of page.html.matchAll(/<script type="?application\/ld\+json"?>([^<]*)<\/script>/g)) {
    const start = script.index + script[0].indexOf('>') + 1
    let field = ''
    for (const m of script[1]!.matchAll(/"((?:[^"\\]|\\.)*)"(\s*:)?/g)) {
      const at = start + m.index + 1
      if (m[2]) { field = m[1]!; continue }
      const { value, found } = inValue(m[1]!)
      if (field === '@type' && /^(Review|AggregateRating)$/.test(value)) findings.push({ rule: testimonial, words: value, at })
      findings.push(...found.map((f) => ({ ...f, at: at + f.at, value })))
    }
  }
  if (findings.length === 0) return []
  const at = lineColumn(page.html)
  return findings.map((f) => ({ ...(f.value === undefined ? {} : { value: f.value }), diagnostic: diagnostic(f, { file: page.path, ...at(f.at) }) }))
}

/** A JSON string value of structured data, as written between its quotes: its text, and what the rules find in it (offsets from its start). */
interface ValueFindings { value: string; found: Finding[] }

function valueFindings(raw: string, active: RulesByTarget): ValueFindings {
  const value = JSON.parse(`"${raw}"`) as string
  const span = { text: raw, at: 0 }
  return { value, found: isAddress(value) ? find(active.links, span) : find(active.text, { ...span, text: prose(raw) }) }
}

// ---- Allow comments and diagnostics -------------------------------------------------------

const ALLOW = /(?:<!--|#)[ \t]*lint-allow\b[ \t]*([A-Z_]*)[ \t]*:?(.*?)[ \t]*(?:-->|$)/gm

function applyAllows(file: SourceFile, findings: Finding[]): Diagnostic[] {
  const position = lineColumn(file.text)
  const allows: Allow[] = [...file.text.matchAll(ALLOW)].map((m) => ({ rule: m[1]!, reason: m[2]!.trim(), used: false, ...position(m.index) }))
  const results = findings.map((f) => {
    const where = { file: file.path, ...position(f.at) }
    const allow = allows.find((a) => a.rule === f.rule.id && a.reason && (a.line === where.line || a.line === where.line - 1))
    if (!allow) return diagnostic(f, where)
    allow.used = true
    return { code: 'LintAllowed', severity: 'warning' as const, message: `${f.rule.id} allowed here: "${f.words}" — reason: ${allow.reason}`, ...where }
  })
  return [...results, ...allows.filter((a) => !a.used).map((a): Diagnostic => {
    const at = { file: file.path, line: a.line, column: a.column }
    const comment = file.path.endsWith('.md') ? `<!-- lint-allow ${a.rule || 'RULE'}: why this wording is justified -->` : `# lint-allow ${a.rule || 'RULE'}: why this wording is justified`
    return a.reason
      ? { code: 'UnusedLintAllow', severity: 'warning', message: `lint-allow ${a.rule || '(no rule named)'} suppresses nothing: no ${a.rule || 'rule'} match on this line or the next.`, hint: 'Remove the comment, or correct the rule name.', ...at }
      : { code: 'LintAllowWithoutReason', severity: 'error', message: `lint-allow ${a.rule || '(no rule named)'} gives no reason, so it allows nothing.`, hint: `Say why the wording is justified: ${comment}`, ...at }
  })]
}

function diagnostic(f: Finding, where: { file: string; line?: number; column?: number }): Diagnostic {
  const allowHint = where.file.endsWith('.md') ? ` If the wording is justified, add <!-- lint-allow ${f.rule.id}: reason --> on the line before (# lint-allow ${f.rule.id}: reason in front matter).`
    : /\.ya?ml$/.test(where.file) ? ` If the wording is justified, add # lint-allow ${f.rule.id}: reason at the end of the line.` : ''
  return { code: f.rule.id, severity: f.rule.severity, message: `"${f.words}" ${f.rule.message}`, hint: `Basis: ${f.rule.basis}.${allowHint}`, ...where }
}
