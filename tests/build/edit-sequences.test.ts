/**
 * After any sequence of edits, of every kind of source, a build that re-uses earlier work writes
 * exactly what a build from nothing writes. After each edit of a random sequence (fast-check), two
 * such builds are compared with a cold build of the same sources:
 * - the dev server's: in memory, one cache kept across saves, only the saved files re-read;
 * - the command's: a real process keeping .clinic/ and dist/ between builds (the up-to-date
 *   record, the patch of the written site after body edits, the cache on disk).
 * Same outcome, same problems and, when the build succeeds, the same files; a failed command
 * leaves dist/ as the last good build left it.
 *
 * A failure prints its seed, path and edits, and says what each edit did; replay it with
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run tests/build/edit-sequences.test.ts
 * (runOptions of tests/support/damage.ts; FC_RUNS=10 runs ten times as many sequences).
 */
import fc from 'fast-check'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { emptyCache } from '../../src/build/cache.ts'
import { readProject, rereadProject } from '../../src/content/read.ts'
import { packageDir } from '../../src/util/package.ts'
import { runOptions } from '../support/damage.ts'
import { addArticles, contentsOf, copySite, digestOf, filesIn, runCli } from '../support/helpers.ts'

// Edits, as plain data, so that a failing case prints them. `article` picks among the articles
// there are when the edit is made (modulo their number): every edit applies to any state.

const BLOG = 'content/en/blog'
/** Articles an edit adds; the first is also a link's target before it exists. */
const NEW_ARTICLES: Record<string, string> = { 'a-later-note': 'A Later Note', 'a-second-look': 'A Second Look' }
const LINKS = ['/blog/note-3/', '/services/ear/', '/cn/contact/', '/blog/a-later-note/', '/blog/no-such-page/']
/** Lines of site.yaml, and values that change pages harmlessly: a number shown, the name, the blog's pagination. */
const SITE_LINES = [['phone: ', '"+65 6100 2099"'], ['name: ', 'Amberlin Clinic'], ['  pageSize: ', '2'], ['  pageSize: ', '5']]

/** Pages other than articles, in both languages: a service (in every page's navigation), a contact page, a translation. */
const PAGES = ['content/en/services/ear.md', 'content/cn/contact.md', 'content/cn/privacy.md']

type Edit =
  | { kind: 'append'; article: number } // a body alone: the patch paths
  | { kind: 'link'; article: number; to: string } // a body whose links change; some lead nowhere
  | { kind: 'title'; article: number; title: string }
  | { kind: 'add'; from: number; name: string } // a copy of an article, under a new name and title
  | { kind: 'remove'; article: number }
  | { kind: 'rename'; article: number; name: string }
  | { kind: 'invalid'; article: number } // `title: 3`: InvalidFrontMatter
  | { kind: 'restore'; file: number } // an edited or removed file as first seen: undoes what broke it
  | { kind: 'draft'; article: number } // draft: true added, or removed
  | { kind: 'page'; file: string; change: 'append' | 'title' | 'remove' }
  | { kind: 'message'; file: string; key: string; text: string }
  | { kind: 'site'; line: string; value: string }
  | { kind: 'favicon'; colour: string } // a static file's bytes
  | { kind: 'drawing'; width: number } // a static SVG added or redrawn, which an article may show
  | { kind: 'picture'; article: number } // shows that drawing, which may not exist yet

type Of<K> = Extract<Edit, { kind: K }>
/** Edits of a kind, from arbitraries of their other fields: plain objects, which print plainly. */
const kind = <K extends Edit['kind']>(k: K, fields: { [F in Exclude<keyof Of<K>, 'kind'>]: fc.Arbitrary<Of<K>[F]> }) =>
  fc.record({ kind: fc.constant(k), ...fields } as never, { noNullPrototype: true }) as fc.Arbitrary<Of<K>>
const article = fc.nat({ max: 99 })
const name = fc.constantFrom(...Object.keys(NEW_ARTICLES))
const edit: fc.Arbitrary<Edit> = fc.oneof(
  kind('append', { article }),
  kind('link', { article, to: fc.constantFrom(...LINKS) }),
  kind('title', { article, title: fc.constantFrom('A Retitled Article', 'Notes, Revised') }),
  kind('add', { from: article, name }),
  kind('remove', { article }),
  kind('rename', { article, name }),
  kind('invalid', { article }),
  kind('restore', { file: article }),
  kind('draft', { article }),
  kind('page', { file: fc.constantFrom(...PAGES), change: fc.constantFrom('append' as const, 'title' as const, 'remove' as const) }),
  kind('message', { file: fc.constantFrom('locales/en-SG.yaml', 'locales/zh-CN.yaml'), key: fc.constantFrom('backHome', 'speak', 'readMore'), text: fc.constantFrom('Edited words', '改过的话') }),
  fc.constantFrom(...SITE_LINES).map(([line, value]) => ({ kind: 'site' as const, line: line!, value: value! })),
  kind('favicon', { colour: fc.constantFrom('#1f4e79', '#7a1f1f') }),
  kind('drawing', { width: fc.constantFrom(320, 640) }),
  kind('picture', { article }),
)
const edits = fc.array(edit, { minLength: 2, maxLength: 5 })

/** A fresh copy of the site with eight short articles more, and the edits made to it. */
class EditedSite {
  readonly root = addArticles(copySite(), 8)
  /** What each edit did, in words, for a failure's message. */
  readonly done: string[] = []
  /** Each file's text as first seen, for `restore`. */
  private readonly first = new Map<string, string>()

  /** Makes `edit` and answers the files it changed, relative to the site. */
  apply(edit: Edit): string[] {
    const list = readdirSync(join(this.root, BLOG)).filter((f) => f.endsWith('.md') && f !== 'index.md').sort().map((f) => `${BLOG}/${f}`)
    const file = 'article' in edit ? list[edit.article % list.length]! : ''
    const [said, changed] = this.make(edit, file, list)
    this.done.push(said)
    return changed
  }

  private make(edit: Edit, file: string, list: string[]): [string, string[]] {
    const change = (path: string, how: (text: string) => string) => {
      this.write(path, how(this.read(path)))
      return [path]
    }
    const title = (text: string, value: string) => text.replace(/^title: .*$/m, `title: ${value}`)
    switch (edit.kind) {
      case 'append': return [`a sentence appended to ${file}`, change(file, (t) => `${t}\nA sentence added while editing.\n`)]
      case 'link': return [`a link to ${edit.to} appended to ${file}`, change(file, (t) => `${t}\nSee [also this page](${edit.to}).\n`)]
      case 'title': return [`${file} retitled "${edit.title}"`, change(file, (t) => title(t, edit.title))]
      case 'invalid': return [`${file} given "title: 3"`, change(file, (t) => title(t, '3'))]
      case 'draft': return [`draft flag of ${file} flipped`, change(file, (t) => (/^draft: true\n/m.test(t) ? t.replace(/^draft: true\n/m, '') : t.replace(/^---\n/, '---\ndraft: true\n')))]
      case 'picture': return [`/images/diagram.svg shown in ${file}`, change(file, (t) => `${t}\n![A diagram of the steps](/images/diagram.svg)\n`)]
      case 'page': {
        if (!existsSync(join(this.root, edit.file))) { // removed by an earlier edit: put back
          this.write(edit.file, this.first.get(edit.file)!)
          return [`${edit.file} put back as first seen`, [edit.file]]
        }
        return this.make(edit.change === 'title' ? { kind: 'title', article: 0, title: 'A Page Retitled' } : { kind: edit.change, article: 0 }, edit.file, list)
      }
      case 'restore': {
        const edited = [...this.first].filter(([path, text]) => !existsSync(join(this.root, path)) || readFileSync(join(this.root, path), 'utf8') !== text).map(([path]) => path).sort()
        if (edited.length === 0) return ['nothing to put back', []]
        const path = edited[edit.file % edited.length]!
        this.write(path, this.first.get(path)!)
        return [`${path} put back as first seen`, [path]]
      }
      case 'remove': {
        this.read(file)
        rmSync(join(this.root, file))
        return [`${file} removed`, [file]]
      }
      case 'add': {
        const from = list[edit.from % list.length]!
        const added = `${BLOG}/${edit.name}.md`
        this.write(added, title(this.read(from), NEW_ARTICLES[edit.name]!))
        return [`${added} added, a copy of ${from}`, [added]]
      }
      case 'rename': {
        const renamed = `${BLOG}/${edit.name}.md`
        if (renamed === file) return [`${file} renamed as itself`, []]
        const text = this.read(file)
        rmSync(join(this.root, file))
        this.write(renamed, text)
        return [`${file} renamed ${renamed}`, [file, renamed]]
      }
      case 'message': return [`${edit.file} ${edit.key}: ${edit.text}`, change(edit.file, (t) => t.replace(new RegExp(`^(  ${edit.key}: ).*$`, 'm'), `$1${edit.text}`))]
      case 'site': return [`content/site.yaml ${edit.line.trim()} ${edit.value}`, change('content/site.yaml', (t) => t.replace(new RegExp(`^${edit.line}.*$`, 'm'), `${edit.line}${edit.value}`))]
      case 'favicon': return [`static/favicon.svg drawn in ${edit.colour}`, change('static/favicon.svg', (t) => t.replace(/stroke="#\w{6}"/, `stroke="${edit.colour}"`))]
      case 'drawing': {
        const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${edit.width}" height="200"><rect width="${edit.width}" height="200" fill="#ccc"/></svg>`
        this.write('static/images/diagram.svg', svg)
        return [`static/images/diagram.svg drawn ${edit.width} px wide`, ['static/images/diagram.svg']]
      }
    }
  }

  private read(path: string): string {
    const text = readFileSync(join(this.root, path), 'utf8')
    if (!this.first.has(path)) this.first.set(path, text)
    return text
  }

  private write(path: string, text: string): void {
    mkdirSync(dirname(join(this.root, path)), { recursive: true })
    writeFileSync(join(this.root, path), text)
    if (!this.first.has(path)) this.first.set(path, text)
  }
}

// Comparisons.

/** Each path whose file differs between two builds' files (as text), with the text around the first difference. */
function differences(warm: Map<string, string>, cold: Map<string, string>): string[] {
  return [...new Set([...warm.keys(), ...cold.keys()])].sort().flatMap((path) => {
    const [a, b] = [warm.get(path), cold.get(path)]
    if (a === b) return []
    if (a === undefined || b === undefined) return [`${path}: only in the ${a === undefined ? 'cold' : 'incremental'} build`]
    let at = 0
    while (a[at] === b[at]) at++
    const around = (text: string) => text.slice(Math.max(0, at - 80), at + 80).replace(/\n/g, '⏎')
    return [`${path} at ${at}:\n  incremental ${around(a)}\n  cold        ${around(b)}`]
  })
}

/** The problems a build reports, as a user reads them. */
const problems = (result: BuildResult) => result.diagnostics.map(({ severity, code, file, line, message }) => ({ severity, code, file, line, message }))

/** The problem lines the command prints (`path:line:column  Name  message`). */
const printed = ({ stdout, stderr }: { stdout: string; stderr: string }) => `${stdout}\n${stderr}`.split('\n').filter((l) => /^\S+ {2}(warning )?[A-Z]\w+ {2}/.test(l))

/** Each file of a folder, as text, of the paths given. */
const textsIn = (dir: string, paths: string[]) => new Map(paths.filter((p) => existsSync(join(dir, p))).map((p) => [p, readFileSync(join(dir, p), 'utf8')]))


/** The dev server's options (src/serve/dev/run-build.ts): drafts, and pages shown untranslated. */
const DEV = { write: false, drafts: true, translationFallback: true } as const

describe('incremental builds after random sequences of edits', () => {
  test("the dev server's rebuilds write what a build from nothing writes", async () => {
    await fc.assert(fc.asyncProperty(edits, async (steps) => {
      const site = new EditedSite()
      try {
        const cache = emptyCache()
        let project = await readProject(site.root, packageDir)
        expect((await build({ root: site.root, ...DEV, project, cache })).ok).toBe(true)
        for (const step of steps) {
          project = await rereadProject(project, site.apply(step), packageDir)
          const warm = await build({ root: site.root, ...DEV, project, cache })
          // On this thread: render threads would load the sources through tsx on every cold build.
          const cold = await build({ root: site.root, ...DEV, cache: false, threads: 0 })
          const after = `after: ${site.done.join('; ')}`
          expect(problems(warm), after).toEqual(problems(cold))
          expect(warm.ok, after).toBe(cold.ok)
          if (cold.ok) expect(differences(contentsOf(warm.files), contentsOf(cold.files)), after).toEqual([])
        }
      } finally {
        rmSync(site.root, { recursive: true, force: true })
      }
    }), runOptions(6, { plugins: [fc.interruptAfterTimeLimit(600_000)] })) // shrinking included: within the test's time
  }, 900_000)

  test("the command's builds, keeping .clinic/ and dist/, write what a build from nothing writes", async () => {
    await fc.assert(fc.asyncProperty(edits, async (steps) => {
      const site = new EditedSite()
      const out = join(site.root, 'dist')
      const reference = mkdtempSync(join(tmpdir(), 'clinic-cold-'))
      try {
        const first = await runCli(['--root', site.root, '--out', out])
        expect(first.status, first.stderr).toBe(0)
        let lastGood = filesIn(out, digestOf)
        for (const step of steps) {
          site.apply(step)
          const [warm, cold] = await Promise.all([runCli(['--root', site.root, '--out', out]), coldBuild(site.root, reference)])
          const after = `after: ${site.done.join('; ')}`
          expect({ status: warm.status, problems: printed(warm) }, after).toEqual({ status: cold.status, problems: printed(cold) })
          const written = filesIn(out, digestOf)
          if (warm.status !== 0) {
            expect(written, `${after}: a failed build changed dist/`).toEqual(lastGood)
            continue
          }
          const fresh = filesIn(join(reference, 'dist'), digestOf)
          const paths = [...new Set([...written.keys(), ...fresh.keys()])].filter((p) => written.get(p) !== fresh.get(p))
          expect(differences(textsIn(out, paths), textsIn(join(reference, 'dist'), paths)), after).toEqual([])
          lastGood = written
        }
      } finally {
        rmSync(site.root, { recursive: true, force: true })
        rmSync(reference, { recursive: true, force: true })
      }
    }), runOptions(3, { endOnFailure: true }))
  }, 900_000)
})

/**
 * The command's build of the site's sources as they are now, in a copy without .clinic/cache. The
 * copy starts, as every site copy does (copySite), with the shipped site's encoded images, which
 * are named by a hash of what they were made from: encoding them again is three seconds a build.
 */
function coldBuild(root: string, copy: string): Promise<{ status: number; stdout: string; stderr: string }> {
  rmSync(copy, { recursive: true, force: true })
  for (const folder of ['content', 'locales', 'static']) cpSync(join(root, folder), join(copy, folder), { recursive: true })
  if (process.env.CLINIC_TESTS_KEPT) cpSync(process.env.CLINIC_TESTS_KEPT, join(copy, '.clinic/cache/files'), { recursive: true })
  return runCli(['--root', copy, '--out', join(copy, 'dist')])
}
