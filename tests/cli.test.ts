/** The CLI as a process: exit codes, exact messages, and a previous site kept intact on failure. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { bytesAndTime, copyPackage, copySite, digestOf, edit, filesIn, projectRoot, runCli } from './support/helpers.ts'

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

describe('usage', () => {
  test.concurrent('--help lists the options and exits 0', async () => {
    const r = await runCli(['--help'])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('Usage: clinic-build')
    expect((await runCli(['build', '--help'])).stdout).toMatch(/--out <dir>[\s\S]*--root <dir>/)
  })
  test.concurrent('--help shows the options of building, the default command, beside the commands', async () => {
    const { stdout } = await runCli(['--help'])
    expect(stdout).toMatch(/Commands:[\s\S]*build[\s\S]*dev[\s\S]*serve[\s\S]*check/)
    expect(stdout).toMatch(/Options of build, the default command[^\n]*\n\s+-o, --out <dir>\s+output folder[\s\S]*\n\s+-r, --root <dir>\s+site folder[\s\S]*\n\s+--profile\s/)
    expect(stdout).toContain('--debug')
  })
  test.concurrent('--version prints the version', async () => {
    expect(await runCli(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
  })
  test.concurrent('an unknown option is one line naming it, exit 2', async () => {
    expect(await runCli(['--prot', '80'])).toEqual({ status: 2, stdout: '', stderr: "clinic-build: unknown option --prot. Run `clinic-build --help` for usage.\n" })
  })
  test.concurrent('an unknown command is one line naming it, exit 2', async () => {
    expect(await runCli(['deploy'])).toEqual({ status: 2, stdout: '', stderr: "clinic-build: unknown command deploy. Run `clinic-build --help` for usage.\n" })
  })
  test.concurrent('refuses an output folder that would replace the sources', async () => {
    const site = copySite()
    const r = await runCli(['--root', site, '--out', site])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^clinic-build: Refusing to write the site to .*: it is the site folder itself\. Choose an output folder of its own, such as dist\.\n$/)
    const parent = await runCli(['--root', site, '--out', join(site, '..')])
    expect(parent.stderr).toContain('it contains the site folder')
    mkdirSync(join(site, 'other/content'), { recursive: true })
    expect((await runCli(['--root', site, '--out', join(site, 'other')])).stderr).toContain('it holds a content/ folder')
  })
})

/** One broken site per mistake an editor can make, with the exact report it must produce. */
const fixtures: { name: string; break: (site: string) => void; stderr: string }[] = [
  {
    name: 'invalid YAML in front matter',
    break: (s) => edit(s, 'content/en/contact.md', (t) => t.replace(/^description: .*$/m, 'description: Visit: the clinic')),
    stderr: 'content/en/contact.md:4:14  InvalidYaml  YAML could not be parsed: Nested mappings are not allowed in compact mappings\n  hint: Check the indentation, and quote values that contain ": " or start with a special character.',
  },
  {
    name: 'invalid YAML in a locale file',
    break: (s) => edit(s, 'locales/zh-CN.yaml', (t) => t.replace('  menu: 菜单', ' menu: 菜单')),
    stderr: 'locales/zh-CN.yaml:9:1  InvalidYaml  YAML could not be parsed: All mapping items must start at the same column\n  hint: Check the indentation, and quote values that contain ": " or start with a special character.',
  },
  {
    name: 'a required front-matter field missing',
    break: (s) => edit(s, 'content/cn/services/ear.md', (t) => t.replace(/^summary: .*\n/m, '')),
    stderr: 'content/cn/services/ear.md:1:1  InvalidFrontMatter  Front matter field "summary" is required.\n  hint: See "Front matter" in docs/editors.md for the fields each kind of page takes.',
  },
  {
    name: 'a front-matter field of the wrong type',
    break: (s) => edit(s, 'content/en/services/ear.md', (t) => t.replace(/^title: .*$/m, 'title: 123')),
    stderr: 'content/en/services/ear.md:2:8  InvalidFrontMatter  Front matter field "title" must be text, got a number.\n  hint: See "Front matter" in docs/editors.md for the fields each kind of page takes.',
  },
  {
    name: 'a page present in one locale and missing in the other',
    break: (s) => rmSync(join(s, 'content/cn/thank-you.md')),
    stderr: 'content/en/thank-you.md  MissingTranslation  This page has no translation: content/cn/thank-you.md is missing.\n  hint: Add the translated file with the same name, or mark it draft: true until the translation is ready.',
  },
  {
    name: 'a message key missing in one locale file',
    break: (s) => edit(s, 'locales/zh-CN.yaml', (t) => t.replace('  open: 打开地图\n', '')),
    stderr: 'locales/zh-CN.yaml  MissingMessage  Message "map.open" is defined in locales/en-SG.yaml:82 but missing here.\n  hint: Add the key to this locale file; every locale defines the same messages.',
  },
  {
    name: 'a template asking for a message no locale defines',
    break: (s) => {
      edit(s, 'locales/zh-CN.yaml', (t) => t.replace('  open: 打开地图\n', ''))
      edit(s, 'locales/en-SG.yaml', (t) => t.replace('  open: Open the map\n', ''))
    },
    stderr: 'templates/parts/Map.tsx:28:12  UnknownMessage  The template asks for message "map.open", which no locale file defines.\n  hint: Add the key to every file in locales/, or correct its name in the template.',
  },
  {
    name: 'two pages with one URL',
    break: (s) => {
      mkdirSync(join(s, 'content/en/contact'))
      writeFileSync(join(s, 'content/en/contact/index.md'), readFileSync(join(s, 'content/en/contact.md')))
    },
    stderr: 'content/en/contact/index.md  DuplicateUrl  /contact/ is produced by more than one file: content/en/contact.md and content/en/contact/index.md.\n  hint: Rename or remove one of them, or give one a different "slug" in its front matter.',
  },
  {
    name: 'a Markdown link to a URL no route produces',
    break: (s) => edit(s, 'content/en/services/ear.md', (t) => `${t}\nSee [nose surgery](/services/nose/).\n`),
    stderr: 'content/en/services/ear.md:87:5  BrokenLink  Link to /services/nose/, but no page has that URL.\n  hint: Internal links are root-relative and end with "/", e.g. /services/rhinoplasty/ or /cn/contact/.',
  },
  {
    name: 'an image without alt text',
    break: (s) => edit(s, 'content/en/privacy.md', (t) => `${t}\n![](/favicon.svg)\n`),
    stderr: 'content/en/privacy.md:68:1  MissingAltText  Image /favicon.svg has no alt text.\n  hint: Describe the image in the brackets: ![A diagram of the eyelid](/images/eyelid.svg).',
  },
]

describe('editor errors: exact message, exit 1, nothing written', () => {
  for (const fixture of fixtures) {
    test.concurrent(fixture.name, async () => {
      const site = copySite()
      fixture.break(site)
      const before = readdirSync(site, { recursive: true }).sort()
      const r = await runCli(['--root', site, '--out', join(site, 'dist')])
      expect(r.status).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(`${fixture.stderr}\n\n1 error: the site was not built and ${join(site, 'dist')} was left as it was.\n`)
      expect(readdirSync(site, { recursive: true }).sort()).toEqual(before)
    })
  }
})

/** Every file under `dir` with its contents and the time it was written. */
const snapshot = (dir: string) => filesIn(dir, bytesAndTime)

test('a failed build leaves the previous output exactly as it was', async () => {
  const site = copySite()
  const out = join(site, 'dist')
  const first = await runCli(['build', '--root', site, '--out', out])
  expect(first.status).toBe(0)
  expect(first.stdout).toContain('built in')
  const before = snapshot(out)
  expect(before.size).toBeGreaterThan(50)
  edit(site, 'content/en/services/ear.md', (t) => t.replace(/^title: .*$/m, 'title: [broken'))
  const second = await runCli(['build', '--root', site, '--out', out])
  expect(second.status).toBe(1)
  expect(snapshot(out)).toEqual(before)
  expect(readdirSync(site).sort()).toEqual(['.clinic', 'content', 'dist', 'locales', 'static'])
})

test('a static file where the build writes a file of its own is left out with a warning naming it; the rest of static/ is published', async () => {
  const site = copySite()
  const out = join(site, 'dist')
  writeFileSync(join(site, 'static/sitemap.xml'), '<urlset>hand-written</urlset>')
  writeFileSync(join(site, 'static/contact'), 'a file where the contact page needs a folder')
  mkdirSync(join(site, 'static/robots.txt'))
  writeFileSync(join(site, 'static/robots.txt/notes.txt'), 'below a file the build writes')
  writeFileSync(join(site, 'static/notes.txt'), 'published')
  const r = await runCli(['build', '--root', site, '--out', out])
  expect(r.status).toBe(0)
  const warnings = r.stderr.split('\n').filter((l) => l.includes('StaticFileReplaced'))
  expect(warnings).toEqual([
    'static/contact  warning StaticFileReplaced  The build writes /contact/index.html itself, so this file is left out of the site.',
    'static/robots.txt/notes.txt  warning StaticFileReplaced  The build writes /robots.txt itself, so this file is left out of the site.',
    'static/sitemap.xml  warning StaticFileReplaced  The build writes /sitemap.xml itself, so this file is left out of the site.',
  ])
  expect(r.stderr).toContain('static/sitemap.xml  warning StaticFileReplaced  The build writes /sitemap.xml itself, so this file is left out of the site.\n  hint: Rename or move the file under static/, or remove it')
  expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toMatch(/^<\?xml[\s\S]*<loc>/)
  expect(readFileSync(join(out, 'contact/index.html'), 'utf8')).toMatch(/^<!doctype html>/i)
  expect(statSync(join(out, 'robots.txt')).isFile()).toBe(true)
  expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('published')
})

test('two builds of one site at once, into two folders, both succeed and share the cache whole', async () => {
  const site = copySite()
  const outs = [join(site, 'dist'), join(site, 'preview')]
  const runs = await Promise.all(outs.map((out) => runCli(['--root', site, '--out', out])))
  expect(runs.map((r) => [r.status, r.stderr])).toEqual([[0, ''], [0, '']])
  expect(filesIn(outs[1]!, digestOf)).toEqual(filesIn(outs[0]!, digestOf))
  // Each wrote its cache files beside them under a name of its own, then renamed them: none is left half-written.
  expect(readdirSync(join(site, '.clinic/cache'), { recursive: true }).map(String).filter((name) => name.endsWith('.tmp'))).toEqual([])
  const again = await runCli(['--root', site, '--out', outs[0]!])
  expect(again.status).toBe(0)
  expect(again.stdout).toContain('Nothing changed since the last build')
})

test('a rebuild of unchanged content re-uses the cache; any change rebuilds', async () => {
  const site = copySite()
  const out = join(site, 'dist')
  const cold = await runCli(['--root', site, '--out', out])
  expect(cold.stdout).not.toContain('re-used')
  const first = snapshot(out)
  // With nothing to parse, render, encode or bundle, the build loads none of the libraries that do.
  const inBundle = await bundledWith(ON_DEMAND)
  expect(inBundle.length).toBeGreaterThan(0) // the parser and the minifier, refused as files of the bundle
  const again = await runCli(['--root', site, '--out', out], projectRoot, undefined, { NODE_OPTIONS: `--import=${refusing(ON_DEMAND, inBundle)}` })
  expect(again.stderr).toBe('')
  expect(again.stdout).toContain('Nothing changed since the last build')
  // Its sizes and budgets come from the cache, by each page's version, without reading the pages.
  const table = (stdout: string) => stdout.slice(stdout.indexOf('bytes per page'), stdout.indexOf('warnings:'))
  expect(table(again.stdout)).toContain('every page fits its budgets')
  expect(table(again.stdout)).toBe(table(cold.stdout))
  const second = snapshot(out)
  expect([...second.keys()]).toEqual([...first.keys()])
  for (const [path, entry] of second) expect(entry.split(' ')[1], path).toBe(first.get(path)!.split(' ')[1])
  // A body edit renders that page alone, and replaces it in the output folder (src/build/written-site.ts);
  // so does a title no other page shows, with the build cache; a service's title is in every
  // English page's navigation, so they all render again (src/page/reads.ts).
  // The edited file's front matter block is as it was: it is not read again, nor its schema loaded.
  edit(site, 'content/en/contact.md', (t) => `${t}\nWe answer enquiries within two working days.\n`)
  const bodyEdit = await runCli(['--root', site, '--out', out], projectRoot, undefined, { NODE_OPTIONS: `--import=${refusing(FRONT_MATTER, await bundledWith(FRONT_MATTER))}` })
  expect(bodyEdit.stderr).toBe('')
  expect(bodyEdit.stdout).toMatch(/^Only Markdown bodies changed: 1 page rendered and replaced in .*dist, the other \d+ as the last build left them/m)
  expect(readFileSync(join(out, 'contact/index.html'), 'utf8')).toContain('We answer enquiries within two working days.')
  edit(site, 'content/en/contact.md', (t) => t.replace(/^title: .*$/m, 'title: Reach us'))
  const titleEdit = await runCli(['--root', site, '--out', out])
  expect(titleEdit.stdout).toMatch(/^1 page rendered, \d+ unchanged ones re-used/m)
  expect(readFileSync(join(out, 'contact/index.html'), 'utf8')).toContain('<title>Reach us | Amberlin Plastic Surgery Clinic</title>')
  edit(site, 'content/en/services/ear.md', (t) => t.replace(/^title: .*$/m, 'title: Otoplasty and Earlobe Repair'))
  const navEdit = await runCli(['--root', site, '--out', out])
  const english = [...filesIn(out, () => true).keys()].filter((p) => p.endsWith('.html') && !p.startsWith('cn/') && !p.startsWith('admin/')).length // the content editor is no page
  const rendered = Number(/^(\d+) pages rendered/m.exec(navEdit.stdout)?.[1])
  expect(rendered).toBeGreaterThanOrEqual(english)
  expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('Otoplasty and Earlobe Repair')
  // After those edits, each build starting from the cache the last one stored, the output is
  // what a build from nothing writes.
  const fresh = join(site, 'fresh')
  rmSync(join(site, '.clinic'), { recursive: true })
  expect((await runCli(['--root', site, '--out', fresh])).status).toBe(0)
  expect(filesIn(out, digestOf)).toEqual(filesIn(fresh, digestOf))
}, 180_000)

/** Libraries that read and check front matter. */
const FRONT_MATTER = ['gray-matter', 'js-yaml', 'yaml', 'zod']

/** Libraries the build loads on first use. */
const ON_DEMAND = ['remark-parse', 'react-dom/server', 'html-minifier-terser', 'sharp', 'esbuild', 'gray-matter', 'htmlparser2', 'yaml', 'zod']

/**
 * The files of the CLI's bundle that took in any of `packages` (esbuild marks each module it takes
 * in with a `// node_modules/<package>/` line): the bundle carries the Markdown stack and the
 * minifier itself, and loading such a file is loading the package.
 */
async function bundledWith(packages: string[]): Promise<string[]> {
  const { cliBundle } = await import(new URL('../bin/bundle.js', import.meta.url).href) as { cliBundle: () => Promise<string | undefined> }
  const cli = await cliBundle()
  if (cli === undefined) return []
  const dir = dirname(fileURLToPath(cli))
  const marks = packages.map((p) => `// node_modules/${p.split('/')[0]}/`)
  return readdirSync(dir).filter((name) => {
    if (!name.endsWith('.js')) return false
    const text = readFileSync(join(dir, name), 'utf8')
    return marks.some((mark) => text.includes(mark))
  })
}

/** A module for node's --import that makes importing or requiring any of `packages`, or any of the bundle's `files`, fail. */
function refusing(packages: string[], files: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-refuse-'))
  const refused = JSON.stringify(packages)
  writeFileSync(join(dir, 'hooks.mjs'), `const refused = ${refused}
const files = ${JSON.stringify(files)}
export async function resolve(specifier, context, next) {
  if (refused.includes(specifier) || files.some((file) => specifier.endsWith('/' + file))) throw new Error('imported ' + specifier)
  return next(specifier, context)
}\n`)
  // Module hooks see import only: require() (createRequire) goes through the CommonJS loader.
  writeFileSync(join(dir, 'register.mjs'), `import Module, { register } from 'node:module'
register('./hooks.mjs', import.meta.url)
const refused = ${refused}
const load = Module._load
Module._load = function (request, ...rest) {
  if (refused.includes(request)) throw new Error('required ' + request)
  return load.call(this, request, ...rest)
}\n`)
  return join(dir, 'register.mjs')
}

test('several mistakes in several files: each reported at its file and line, no stack trace, the previous output kept', async () => {
  const site = copySite()
  const out = join(site, 'dist')
  const first = await runCli(['--root', site, '--out', out])
  expect(first.status).toBe(0)
  // A clean build of a small site prints nothing on stderr: no warnings, no progress.
  expect(first.stderr).toBe('')
  const before = snapshot(out)
  edit(site, 'content/en/services/ear.md', (t) => t.replace(/^title: .*$/m, 'title: 123'))
  edit(site, 'content/cn/contact.md', (t) => t.replace(/^description: .*$/m, 'description: Visit: the clinic'))
  edit(site, 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md', (t) => t.replace(/^tags: /m, 'reviwedOn: 2026-10-01\ntags: '))
  const r = await runCli(['--root', site, '--out', out])
  expect(r.status).toBe(1)
  expect(r.stdout).toBe('')
  expect(r.stderr).toContain('content/cn/contact.md:4:14  InvalidYaml  YAML could not be parsed: Nested mappings are not allowed in compact mappings\n')
  expect(r.stderr).toContain('content/en/services/ear.md:2:8  InvalidFrontMatter  Front matter field "title" must be text, got a number.\n')
  // The line of an unknown field is not asserted here: it is reported at 1:1 (see stages.test.ts).
  expect(r.stderr).toMatch(/^content\/en\/blog\/how-to-prepare-for-a-rhinoplasty\.md:\d+:\d+  InvalidFrontMatter  Front matter field "reviwedOn" is not a known field \(a typing mistake\?\)\.$/m)
  // Every problem line is "path:line:column  Name  message", followed by its hint.
  const lines = r.stderr.split('\n')
  const problems = lines.filter((l) => /^\S/.test(l) && !/^\d+ errors?:/.test(l))
  expect(problems).toHaveLength(3)
  for (const line of problems) expect(line).toMatch(/^content\/\S+\.md:\d+:\d+  [A-Z][A-Za-z]+  \S/)
  expect(lines.filter((l) => l.startsWith('  hint: '))).toHaveLength(3)
  expect(r.stderr.endsWith(`\n\n3 errors: the site was not built and ${out} was left as it was.\n`)).toBe(true)
  expect(r.stderr).not.toMatch(/^\s+at /m)
  expect(r.stderr).not.toContain('Internal error')
  expect(snapshot(out)).toEqual(before)
}, 120_000)

test('a build of more than 300 pages prints its progress on stderr, up to every page', async () => {
  const site = copySite()
  const out = join(site, 'dist')
  const ARTICLES = 260
  for (let i = 1; i <= ARTICLES; i++) {
    const day = String((i % 28) + 1).padStart(2, '0')
    writeFileSync(join(site, `content/en/blog/generated-note-${i}.md`), [
      '---', `title: Generated Note ${i}`, `description: A short generated article, number ${i}, about planning a consultation.`,
      `date: 2025-${String((i % 12) + 1).padStart(2, '0')}-${day}`, 'author: dr-evelyn-quah', 'reviewedBy: dr-evelyn-quah',
      'reviewedOn: 2026-10-01', 'tags: [consultation, preparation]', '---', '',
      `This note ${i} describes what to bring to a first consultation about [rhinoplasty](/services/rhinoplasty/).`, '',
      '## What to bring', '', 'A list of your medicines and any questions you would like to ask.', '',
    ].join('\n'))
  }
  const r = await runCli(['--root', site, '--out', out])
  expect(r.status).toBe(0)
  const pages = (readdirSync(out, { recursive: true }) as string[]).filter((f) => f.endsWith('.html') && !f.startsWith('admin/')).length // the content editor is no page
  expect(pages).toBeGreaterThan(300)
  const lines = r.stderr.trimEnd().split('\n')
  const shown = lines.map((l) => /^rendering (\d+)\/(\d+) pages \((\d+)%\)$/.exec(l))
  expect(shown.every(Boolean), r.stderr).toBe(true)
  expect(shown.length).toBeGreaterThan(1)
  const done = shown.map((m) => Number(m![1]))
  for (const m of shown) {
    expect(Number(m![2])).toBe(pages)
    expect(Number(m![3])).toBe(Math.floor((Number(m![1]) / pages) * 100))
  }
  expect(done).toEqual([...new Set(done)].sort((a, b) => a - b))
  expect(lines.at(-1)).toBe(`rendering ${pages}/${pages} pages (100%)`)
  // The summary still follows on stdout, counting the generated articles.
  expect(r.stdout).toMatch(new RegExp(`^  article\\s+${ARTICLES + 13}\\s+0$`, 'm'))
}, 300_000)

test('a bug in clinic-build is one line naming the file it was processing, and the stack only with --debug', async () => {
  const copy = copyPackage()
  edit(copy, 'templates/pages/Doctor.tsx', (text) => text.replace('<div className="wrap doctor">', '{(() => { throw new TypeError(\'a planted bug\') })()}<div className="wrap doctor">'))
  const site = copySite()
  const out = join(site, 'dist')
  const bin = join(copy, 'bin/clinic-build.js')
  const r = await runCli(['--root', site, '--out', out], copy, bin)
  expect(r.status).toBe(70)
  expect(r.stderr).toMatch(/^clinic-build: internal error while processing content\/(en|cn)\/dr-[a-z-]+\.md: a planted bug\. This is a bug in clinic-build, not a mistake in the site: please report it to its developers with the output of the same command run with --debug\.\n$/)
  expect(existsSync(out)).toBe(false)
  const debug = await runCli(['--root', site, '--out', out, '--debug'], copy, bin)
  expect(debug.status).toBe(70)
  expect(debug.stderr.split('\n')[0]).toBe(r.stderr.trimEnd())
  expect(debug.stderr).toMatch(/caused by: TypeError: a planted bug\n\s+at /)
  rmSync(copy, { recursive: true, force: true })
})

test('after an install, the command\'s bundle, the editor\'s bundle and every result a build kept are made again', async () => {
  // A copy whose node_modules holds the real packages, and a record of the installed tree of its own.
  const copy = copyPackage()
  const record = join(copy, 'node_modules/.package-lock.json')
  rmSync(join(copy, 'node_modules'))
  mkdirSync(join(copy, 'node_modules'))
  for (const name of readdirSync(join(projectRoot, 'node_modules')).filter((n) => n !== '.package-lock.json')) {
    symlinkSync(join(projectRoot, 'node_modules', name), join(copy, 'node_modules', name))
  }
  cpSync(join(projectRoot, 'node_modules/.package-lock.json'), record)
  const site = copySite()
  const out = join(site, 'dist')
  const run = () => runCli(['--root', site, '--out', out], copy, join(copy, 'bin/clinic-build.js'))
  const made = () => ({
    command: readdirSync(join(copy, '.bundle')).filter((n) => n !== 'admin'),
    editor: readdirSync(join(copy, '.bundle/admin')),
    kept: readdirSync(join(site, '.clinic/cache/files')),
  })

  expect((await run()).status).toBe(0)
  const first = made()
  const site1 = filesIn(out, digestOf)
  expect(first.kept.filter((name) => /^(image|og|bundle|admin|site|messages)-/.test(name)).length).toBeGreaterThan(10)
  expect((await run()).stdout).toContain('Nothing changed since the last build')
  expect(made()).toEqual(first)

  // What npm writes when it installs another version of a library.
  const tree = JSON.parse(readFileSync(record, 'utf8')) as { packages: Record<string, { version?: string }> }
  tree.packages['node_modules/yaml']!.version += '-another'
  writeFileSync(record, JSON.stringify(tree, null, 2))
  const after = await run()
  expect(after.status).toBe(0)
  expect(after.stdout).not.toContain('Nothing changed since the last build')
  const second = made()
  expect(second.command).toHaveLength(2)
  expect(second.editor).toHaveLength(2)
  // Every kept result was made again, under a name of the new install's: none taken from the last.
  expect(second.kept).toHaveLength(first.kept.length)
  expect(second.kept.filter((name) => first.kept.includes(name))).toEqual([])
  expect(filesIn(out, digestOf)).toEqual(site1)
  rmSync(copy, { recursive: true, force: true })
}, 180_000)

test('the CLI runs from a bundle of its sources, made again when one of them changes', async () => {
  const copy = copyPackage()
  const run = (args: string[]) => runCli(args, copy, join(copy, 'bin/clinic-build.js'))
  const bundles = () => readdirSync(join(copy, '.bundle'))

  expect((await run(['--help'])).stdout).toContain('Builds the clinic website from Markdown')
  expect(bundles()).toHaveLength(1)
  expect(readdirSync(join(copy, '.bundle', bundles()[0]!))).toEqual(expect.arrayContaining(['cli.js', 'shard-worker.js']))
  await run(['--help'])
  expect(bundles()).toHaveLength(1)

  edit(copy, 'src/cli.ts', (text) => text.replace('Builds the clinic website from Markdown', 'Builds the clinic website (edited) from Markdown'))
  expect((await run(['--help'])).stdout).toContain('Builds the clinic website (edited) from Markdown')
  expect(bundles()).toHaveLength(2)

  // A source that does not compile: named with its line, no stack trace, nothing run.
  edit(copy, 'src/cli.ts', (text) => text.replace("const cli = new Command('clinic-build')", "const cli = new Command('clinic-build'"))
  const broken = await run(['--help'])
  expect(broken.status).toBe(1)
  expect(broken.stdout).toBe('')
  expect(broken.stderr).toMatch(/^clinic-build: src\/cli\.ts:\d+:\d+  Expected "\)" but found/)
  expect(broken.stderr).not.toMatch(/\n\s+at /)
  // `--version` alone is answered before the bundle is looked for.
  expect(await run(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
  rmSync(copy, { recursive: true, force: true })
})
