/** Test helpers: copies of the real site in temporary folders, and the CLI run as a process. */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'

export const projectRoot = resolve(import.meta.dirname, '../..')
export const BIN = join(projectRoot, 'bin/clinic-build.js')

/**
 * Each file under `dir`, by its path relative to it (with forward slashes), in order, with what
 * `describe` says of the file at `path`.
 */
export function filesIn<T>(dir: string, describe: (path: string) => T): Map<string, T> {
  const paths = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  return new Map(paths.map((path) => [relative(dir, path).split(sep).join('/'), path] as const).sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, path]) => [name, describe(path)]))
}
/** What a file holds, as a digest of its bytes. */
export const digestOf = (path: string): string => createHash('sha1').update(readFileSync(path)).digest('hex')
/** What a file holds and when it was last written: a file written again with the same bytes differs. */
export const bytesAndTime = (path: string): string => `${statSync(path).mtimeMs} ${readFileSync(path, 'base64')}`

/** A build's files, as text (binary files as base64), by path. */
export const contentsOf = (files: { path: string; contents: string | Uint8Array }[]) =>
  new Map(files.map((f) => [f.path, typeof f.contents === 'string' ? f.contents : Buffer.from(f.contents).toString('base64')]))

/**
 * A fresh copy of the site's sources (content/, locales/, static/) in a temporary folder, with
 * the shipped site's encoded images kept as a build would have kept them, when the run's set-up
 * made them: a copy's builds are otherwise the builds of a site never built.
 */
export function copySite(): string {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-site-'))
  for (const folder of ['content', 'locales', 'static']) cpSync(join(projectRoot, folder), join(dir, folder), { recursive: true })
  const kept = process.env.CLINIC_TESTS_KEPT
  if (kept) cpSync(kept, join(dir, '.clinic/cache/files'), { recursive: true })
  return dir
}

/**
 * Adds `n` short English articles to the site at `dir`, dated a day apart from 1 January 2026
 * backwards, with no links: a larger site, in which an edit changes a small share of the pages.
 */
export function addArticles(dir: string, n: number): string {
  for (let i = 1; i <= n; i++) {
    const date = new Date(Date.UTC(2026, 0, 1) - (i - 1) * 86_400_000).toISOString().slice(0, 10)
    writeFileSync(join(dir, `content/en/blog/note-${i}.md`), `---\ntitle: Clinic note ${i}\ndescription: A short note on visiting the clinic, number ${i}.\ndate: ${date}\n`
      + `author: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [notes]\n---\n\nPlease bring your referral letter and a list of your medicines to your visit.\n`)
  }
  return dir
}

/** A copy of clinic-build itself (its code, not a site), to edit without touching the real one. */
export function copyPackage(): string {
  const copy = mkdtempSync(join(tmpdir(), 'clinic-package-'))
  for (const part of ['bin', 'src', 'templates', 'package.json', 'tsconfig.json']) cpSync(join(projectRoot, part), join(copy, part), { recursive: true })
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'))
  return copy
}

/** Rewrites one file of a site copy. */
export function edit(dir: string, file: string, change: (text: string) => string): void {
  const path = join(dir, file)
  writeFileSync(path, change(readFileSync(path, 'utf8')))
}

/** Runs the CLI (`bin`: of another copy of the package) as a real process; resolves with its exit code and output. */
export function runCli(args: string[], cwd = projectRoot, bin = BIN, env: NodeJS.ProcessEnv = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      done({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    })
  })
}

/** The lines that differ between two versions of a text, as '-old' and '+new', the way a review diff shows them. */
export function changedLines(before: string, after: string): string[] {
  const a = before.split('\n')
  const b = after.split('\n')
  let head = 0
  while (head < a.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  return [...a.slice(head, a.length - tail).map((l) => `-${l}`), ...b.slice(head, b.length - tail).map((l) => `+${l}`)]
}

/** The visible text of an HTML page, without scripts, styles and tags. */
export function textOf(html: string): string {
  return html.replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim()
}

/** The spec's routes, as the site must emit them. */
export const SERVICES = ['abdominoplasty', 'breast-augmentation', 'breast-lift', 'double-eyelid-surgery', 'ear', 'epicanthoplasty', 'eyelid-surgery', 'liposuction', 'rhinoplasty', 'septoplasty']
export const ARTICLES = [
  'a-guide-to-double-eyelid-surgery', 'benefits-of-motiva-breast-implant', 'comprehensive-guide-to-plastic-surgery',
  'debunking-myths-about-plastic-surgery', 'eyelid-surgery-for-correcting-ptosis', 'how-to-choose-the-right-plastic-surgeon',
  'how-to-maintain-results-after-your-plastic-surgery', 'how-to-prepare-for-a-plastic-surgery-consultation',
  'how-to-prepare-for-a-rhinoplasty', 'post-surgery-care-tips-for-a-smooth-recovery', 'psychological-benefits-cosmetic-surgery',
  'upper-vs-lower-eyelid-surgery', 'vaser-liposuction-vs-traditional-liposuction',
]
export const DOCTORS = ['dr-evelyn-quah', 'dr-nathaniel-goh']
/** Pages in both languages: the spec's, plus /privacy/ (documented in the README). */
export const BILINGUAL_PATHS = ['/', '/contact/', ...DOCTORS.map((d) => `/${d}/`), '/services/', ...SERVICES.map((s) => `/services/${s}/`), '/thank-you/', '/privacy/']
export const ENGLISH_ONLY_PATHS = ['/blog/', ...ARTICLES.map((a) => `/blog/${a}/`)]

/** The content files the tests of body edits change (tests/build/body-edits.test.ts, written-site.test.ts), and the page of the first. */
export const EDITED = {
  ARTICLE: 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md',
  ARTICLE_PAGE: 'blog/how-to-prepare-for-a-rhinoplasty/index.html',
  OTHER: 'content/en/blog/a-guide-to-double-eyelid-surgery.md',
  CONTACT_CN: 'content/cn/contact.md',
  BLOG: 'content/en/blog/index.md',
}

/** How long to poll for a rebuild: rebuilds share two cores with everything else on the machine, so wait generously, on conditions. */
export const REBUILD = { timeout: 150_000, interval: 200 }
