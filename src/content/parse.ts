/**
 * Markdown files -> validated Docs: front matter checked against its template's schema, the body
 * kept as text (src/markdown/body.ts parses it where it is needed). Pure: text in, data and diagnostics out.
 */
import type grayMatter from 'gray-matter'
import { createHash } from 'node:crypto'
import { oncePer } from '../util/memo.ts'
import { problem } from '../errors.ts'
import { frontMatterSchemas, templateFor, type FrontMatter } from './schemas/front-matter.ts'
import { onFirstUse } from '../util/on-first-use.ts'
import { validate } from './validate.ts'
import type { BodySource, Diagnostic, Doc, SiteConfig, SourceFile, TemplateName } from '../types.ts'
import { parseYaml } from './yaml.ts'
import { localeUrl } from '../shared/urls.ts'

const matter = onFirstUse<typeof grayMatter>('gray-matter')

/** Parses every content file; a file with errors yields diagnostics instead of a Doc. */
export function parseDocs(files: SourceFile[], site: SiteConfig, parse = parseDoc): { docs: Doc[]; unreadable: Place[]; diagnostics: Diagnostic[] } {
  const docs: Doc[] = []
  const unreadable: Place[] = []
  const diagnostics: Diagnostic[] = []
  for (const file of files) {
    const result = parse(file, site)
    diagnostics.push(...result.diagnostics)
    if (result.doc) docs.push(result.doc)
    else if (result.place) unreadable.push(result.place)
  }
  return { docs, unreadable, diagnostics }
}

/** Where a content file belongs. Files that failed to parse keep theirs, so that checks across
 * files (translations, links) do not report them a second time as missing. */
export interface Place { locale: string; path: string }

export interface ParsedDoc { doc?: Doc; place?: Place; diagnostics: Diagnostic[] }

export function parseDoc(file: SourceFile, site: SiteConfig): ParsedDoc {
  const place = placeOf(file.path, site)
  if ('diagnostic' in place) return { diagnostics: [place.diagnostic] }
  if (file.problem) return { place, diagnostics: [file.problem] }
  if (file.text.trim() === '') return { place, diagnostics: [problem('EmptyPage', [], { file: file.path })] }

  const { yamlText, body } = splitFile(file)
  if (!OPENING_LINE.test(file.text)) return { place, diagnostics: [problem('MissingFrontMatter', [], { file: file.path, line: 1, column: 1 })] }
  const parsed = parseYaml(yamlText, file.path) // gray-matter keeps the newline after the opening ---
  if (Array.isArray(parsed)) return { place, diagnostics: parsed }

  const named = (parsed.data as { template?: unknown }).template
  const schemas = frontMatterSchemas()
  const template = (typeof named === 'string' && named in schemas ? named : templateFor(place.path)) as TemplateName
  const checked = validate(schemas[template], parsed, { file: file.path, code: 'InvalidFrontMatter' })
  if ('diagnostics' in checked) return { place, diagnostics: checked.diagnostics }
  const data = checked.value as unknown as FrontMatter

  const diagnostics = doctorReferences(data, site).map(([field, slug]) =>
    problem('UnknownDoctor', [field, slug, site.doctors.map((d) => d.slug).join(', ')], { file: file.path, ...parsed.locate([field]) }))
  const path = data.slug ? place.path.replace(/[^/]+\/$/, `${data.slug}/`) : place.path
  const badName = path.split('/').find((name) => name !== '' && !URL_NAME.test(name))
  if (badName !== undefined) diagnostics.push(problem('InvalidPageName', [badName, localeUrl(place.locale, path, site.defaultLocale)], { file: file.path }))
  return { doc: { ...body, locale: place.locale, path, template, data, hash: fileHash(file) }, diagnostics }
}

/** A Doc's hash: of its file's whole text. */
export const fileHash = (file: SourceFile): string => createHash('sha1').update(file.text).digest('base64url')

/** The line that opens front matter: three dashes alone. */
const OPENING_LINE = /^---[ \t]*\n/

/** What a folder or file name may be to become part of a URL: as a front matter `slug`. */
const URL_NAME = /^[a-z0-9-]+$/

/**
 * A content file's front matter (YAML text) and body, split once: the build hands the body to the
 * render workers before the front matter is read. Example body:
 *   { id: 'content/en/contact.md', markdown: 'Call us…', bodyLine: 8 }
 */
export const splitFile = oncePer((file: SourceFile): { yamlText: string; body: BodySource } => {
  // gray-matter reads a word after the opening --- as the front matter's language: "---js" runs
  // it as JavaScript, "---json" throws on bad JSON, any other word throws. Such a file has no
  // front matter (parseDoc reports MissingFrontMatter), so it never reaches gray-matter.
  if (file.text.startsWith('---') && !OPENING_LINE.test(file.text)) return { yamlText: '', body: { id: file.path, markdown: file.text, bodyLine: 1 } }
  // gray-matter leaves `matter` undefined for an empty file.
  const { matter: yamlText = '', content } = matter()(file.text, { engines: { yaml: () => ({}) } })
  const bodyLine = file.text.slice(0, file.text.length - content.length).split('\n').length
  return { yamlText, body: { id: file.path, markdown: content, bodyLine } }
})

/** A content file's text before its body: the front matter block with its delimiters (see bodyAfter). */
export const headOf = (file: SourceFile): string => file.text.slice(0, file.text.length - splitFile(file).body.markdown.length)

/**
 * The body of a file that begins with `head`, an earlier version's front matter block (headOf),
 * as splitFile would find it, without loading the front matter's parser: an editor's change to
 * a body then reads no YAML. Undefined unless the file begins with that block, closing line
 * included, which is where gray-matter ends the front matter whatever follows.
 */
export function bodyAfter(file: SourceFile, head: string): BodySource | undefined {
  if (file.problem || !CLOSED.test(head) || !file.text.startsWith(head)) return undefined
  return { id: file.path, markdown: file.text.slice(head.length), bodyLine: head.split('\n').length }
}
const CLOSED = /\n---\n$/ // line endings are \n once read (text.ts)

/**
 * Locale and route path from a content file's location.
 *   content/cn/services/ear.md  -> { locale: 'cn', path: '/services/ear/' }
 *   content/en/index.md         -> { locale: 'en', path: '/' }
 */
function placeOf(file: string, site: SiteConfig): Place | { diagnostic: Diagnostic } {
  const [, locale = '', ...rest] = file.replace(/\.md$/, '').split('/')
  const codes = site.locales.map((l) => l.code)
  if (!codes.includes(locale) || rest.length === 0) {
    return { diagnostic: problem('UnknownLocale', [`content/${rest.length ? locale : ''}`, codes.join(', ')], { file }) }
  }
  if (rest.at(-1) === 'index') rest.pop()
  return { locale, path: rest.length ? `/${rest.join('/')}/` : '/' }
}

function doctorReferences(data: FrontMatter, site: SiteConfig): [string, string][] {
  const known = new Set(site.doctors.map((d) => d.slug))
  return (['author', 'reviewedBy'] as const)
    .filter((field) => data[field] !== undefined && !known.has(data[field]!))
    .map((field) => [field, data[field]!])
}
