/**
 * Property-based tests: random valid front matter and locale files, and random damage to valid
 * ones (tests/support/damage.ts). Every build ends as the command would end it with exit 0, or
 * with exit 1 and every diagnostic naming a file, the previous output left as it was; never with
 * exit 70 (an exception out of the build) or a stack trace.
 *
 * Most cases build in this process, into a copy of the site, re-reading only the saved file as
 * `dev` does; a few run the command itself. A failing case prints its seed and path; replay it with
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run tests/content/damage.test.ts
 * (FC_SEED alone runs the same cases again, and shrinks anew). FC_RUNS=10 runs ten times as many cases.
 */
import fc from 'fast-check'
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { stringify } from 'yaml'
import { build } from '../../src/build/build.ts'
import { emptyCache } from '../../src/build/cache.ts'
import { readProject, rereadProject } from '../../src/content/read.ts'
import { formatDiagnostic, formatInternalError, UsageError } from '../../src/errors.ts'
import { packageDir } from '../../src/util/package.ts'
import type { Diagnostic, Project } from '../../src/types.ts'
import { body, bodyOf, damaged, damages, frontMatter, localeFile, pageFile, runOptions, yamlLayout, type PageKind } from '../support/damage.ts'
import { copySite, digestOf, filesIn, runCli } from '../support/helpers.ts'

/** Pages of every kind, and the locale files: what the damage is done to. */
const PAGES: [string, PageKind][] = [
  ['content/en/blog/how-to-prepare-for-a-rhinoplasty.md', 'article'],
  ['content/en/services/ear.md', 'service'],
  ['content/cn/services/rhinoplasty.md', 'service'],
  ['content/en/dr-evelyn-quah.md', 'doctor'],
  ['content/cn/index.md', 'home'],
  ['content/en/contact.md', 'contact'],
  ['content/en/blog/index.md', 'blog-index'],
  ['content/cn/services/index.md', 'services'],
  ['content/en/thank-you.md', 'thank-you'],
  ['content/en/privacy.md', 'page'],
]
const LOCALES = ['locales/en-SG.yaml', 'locales/zh-CN.yaml']
/** A page that is not in the site: the blog is in English only, so it needs no translation. */
const NEW_ARTICLE = 'content/en/blog/generated-article.md'

/** How the command ends a build (src/cli.ts): 0 built, 1 the site's errors, 70 anything thrown (a bug). */
interface Outcome { exit: 0 | 1 | 70; diagnostics: Diagnostic[]; thrown?: unknown }

/** A copy of the site built in this process, into its own dist/, with the build's cache in memory. */
class Site {
  readonly root = copySite()
  readonly out = join(this.root, 'dist')
  private readonly cache = emptyCache()
  private project!: Project
  private original = new Map<string, Buffer>()
  /** The output folder as the last good build left it. */
  private previous = new Map<string, string>()

  async start(): Promise<void> {
    this.project = await readProject(this.root, packageDir)
    const first = await this.build()
    expect(first.exit, first.diagnostics.map(formatDiagnostic).join('\n')).toBe(0)
  }

  /** A file of the site as it was copied. */
  bytes(file: string): Buffer {
    if (!this.original.has(file)) this.original.set(file, readFileSync(join(this.root, file)))
    return this.original.get(file)!
  }

  text(file: string): string {
    return this.bytes(file).toString('utf8')
  }

  /** Saves `files`, builds, checks the outcome, then puts the site's own files back (or removes new ones). */
  async buildWith(files: Record<string, Buffer | string>): Promise<Outcome> {
    const paths = Object.keys(files)
    const before = new Map(paths.map((path) => [path, existsUnder(this.root, path) ? readFileSync(join(this.root, path)) : undefined]))
    for (const path of paths) writeFileSync(join(this.root, path), files[path]!)
    try {
      this.project = await rereadProject(this.project, paths, packageDir)
      const outcome = await this.build()
      expectSound(outcome, this.root)
      if (outcome.exit === 1) expect(outputOf(this.out), 'a failed build changed the output folder').toEqual(this.previous)
      return outcome
    } finally {
      for (const [path, bytes] of before) {
        if (bytes) writeFileSync(join(this.root, path), bytes)
        else rmSync(join(this.root, path))
      }
      this.project = await rereadProject(this.project, paths, packageDir)
    }
  }

  private async build(): Promise<Outcome> {
    let outcome: Outcome
    try {
      const result = await build({ root: this.root, out: this.out, project: this.project, cache: this.cache })
      outcome = { exit: result.ok ? 0 : 1, diagnostics: result.diagnostics }
    } catch (thrown) {
      // A UsageError is the command's exit 1, but it names no file: here it counts as a bug too.
      outcome = { exit: thrown instanceof UsageError ? 1 : 70, diagnostics: [], thrown }
    }
    if (outcome.exit === 0) this.previous = outputOf(this.out)
    return outcome
  }
}

/**
 * Each file of an output folder, with what changes when it is written again: size, time and inode
 * (the build links unchanged files into a fresh folder, so these stay).
 */
const outputOf = (dir: string) => filesIn(dir, (path) => { const s = statSync(path); return `${s.size} ${s.mtimeMs} ${s.ino}` })

/** Exit 0, or exit 1 with errors that each name a file of the site; nothing thrown, no stack trace. */
function expectSound(outcome: Outcome, root: string): void {
  if ('thrown' in outcome) expect.fail(formatInternalError(outcome.thrown, true))
  const errors = outcome.diagnostics.filter((d) => d.severity === 'error')
  if (outcome.exit === 1) expect(errors.length, 'a failed build without an error').toBeGreaterThan(0)
  else expect(errors.map(formatDiagnostic)).toEqual([])
  for (const d of outcome.diagnostics) {
    const shown = formatDiagnostic(d)
    expect(d.file, shown).toBeTruthy()
    expect(d.file!.startsWith('templates') || existsUnder(root, d.file!), shown).toBe(true)
    expect(shown).not.toMatch(/\n\s+at |internal error/i)
  }
}

const existsUnder = (root: string, file: string) => statSync(join(root, file), { throwIfNoEntry: false }) !== undefined

let site: Site
beforeAll(async () => {
  site = new Site()
  await site.start()
})
afterAll(() => rmSync(site.root, { recursive: true, force: true }))

/** Front matter of a kind, and a page's file laid out and with a body. */
const validPage = fc.oneof(
  { weight: 4, arbitrary: fc.record({ file: fc.constant(NEW_ARTICLE), data: frontMatter('article', { slug: true, draft: true, template: 'maybe' }), markdown: body }) },
  { weight: 1, arbitrary: fc.constantFrom(...PAGES).chain(([file, kind]) => fc.record({ file: fc.constant(file), data: frontMatter(kind, { template: kind === 'doctor' ? 'always' : undefined }), markdown: fc.constant(undefined) })) },
).chain((page) => yamlLayout.map((layout) => ({ ...page, layout })))

describe('valid files build', () => {
  test('random valid front matter builds, exit 0', async () => {
    await fc.assert(fc.asyncProperty(validPage, async ({ file, data, markdown, layout }) => {
      const text = pageFile(data, layout, markdown ?? bodyOf(site.text(file)))
      const { exit, diagnostics } = await site.buildWith({ [file]: text })
      expect(exit, diagnostics.map(formatDiagnostic).join('\n')).toBe(0)
    }), runOptions(24))
  }, 120_000)

  test('random valid locale files build, exit 0', async () => {
    const locale = fc.constantFrom(...LOCALES).chain((file) => localeFile(site.text(file)).map((text) => ({ file, text })))
    await fc.assert(fc.asyncProperty(locale, async ({ file, text }) => {
      const { exit, diagnostics } = await site.buildWith({ [file]: text })
      expect(exit, diagnostics.map(formatDiagnostic).join('\n')).toBe(0)
    }), runOptions(8))
  }, 120_000)
})

describe('damaged files', () => {
  /**
   * How many builds of a property ended with each exit code: the damage must reach both. The runs
   * are enough for that to hold but once in a hundred thousand: in 800 cases of each, 12% of
   * damaged pages built, 9% of damaged new pages and 5% of damaged locale files.
   */
  const tally = () => {
    const exits = { 0: 0, 1: 0 }
    return { count: ({ exit }: Outcome) => { if (exit !== 70) exits[exit]++ }, expectBoth: () => expect(Math.min(exits[0], exits[1]), JSON.stringify(exits)).toBeGreaterThan(0) }
  }

  test('a damaged page: exit 0, or exit 1 naming files and the output left as it was', async () => {
    const exits = tally()
    const target = fc.constantFrom(...PAGES.map(([file]) => file))
    await fc.assert(fc.asyncProperty(target, damages, async (file, list) => {
      exits.count(await site.buildWith({ [file]: damaged(site.bytes(file), list) }))
    }), runOptions(150))
    exits.expectBoth()
  }, 120_000)

  test('a damaged locale file: exit 0, or exit 1 naming files and the output left as it was', async () => {
    const exits = tally()
    await fc.assert(fc.asyncProperty(fc.constantFrom(...LOCALES), damages, async (file, list) => {
      exits.count(await site.buildWith({ [file]: damaged(site.bytes(file), list) }))
    }), runOptions(250))
    exits.expectBoth()
  }, 120_000)

  test('a damaged valid new page: exit 0, or exit 1 naming files and the output left as it was', async () => {
    const exits = tally()
    const page = fc.tuple(frontMatter('article', { slug: true, template: 'maybe' }), yamlLayout, body).map(([data, layout, markdown]) => pageFile(data, layout, markdown))
    await fc.assert(fc.asyncProperty(page, damages, async (text, list) => {
      exits.count(await site.buildWith({ [NEW_ARTICLE]: damaged(Buffer.from(text), list) }))
    }), runOptions(150))
    exits.expectBoth()
  }, 120_000)
})

describe('cases the properties found', () => {
  test.each(['js', 'javascript', 'json', 'coffee', 'yaml', '😀'])('a page opening with ---%s has no front matter, and nothing in it runs', async (word) => {
    const marker = `damage-test-${word.length}`
    const text = `---${word}\n(globalThis[${JSON.stringify(marker)}] = true, { title: 'x' })\n---\n\nText.\n`
    const { exit, diagnostics } = await site.buildWith({ [NEW_ARTICLE]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${NEW_ARTICLE}:1:1  MissingFrontMatter`)])
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined()
  })

  test('YAML nested deeper than its parser can go is InvalidYaml at its line', async () => {
    const file = LOCALES[0]!
    const text = site.text(file).replace(/^( +skip: ).*$/m, (_, key: string) => `${key}${'['.repeat(2000)}x${']'.repeat(2000)}`)
    const line = text.split('\n').findIndex((l) => l.includes('[[[')) + 1
    const { exit, diagnostics } = await site.buildWith({ [file]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringMatching(new RegExp(`^${file}:${line}:\\d+  InvalidYaml  YAML could not be parsed: the values are nested too deeply\\.`))])
  })

  test('a footnote\'s definition holding quotes 10,000 deep is MarkdownTooDeep at its line, on every Node line', async () => {
    const markdown = 'A note.[^deep]\n\n[^deep]: ' + '> '.repeat(10_000) + 'x'
    const text = pageFile({ title: 'Deep', description: 'A note nested deep.', template: 'page' }, {}, markdown)
    const line = text.split('\n').findIndex((l) => l.startsWith('[^deep]:')) + 1
    const { exit, diagnostics } = await site.buildWith({ [NEW_ARTICLE]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${NEW_ARTICLE}:${line}  MarkdownTooDeep`)])
  })

  test('a control character in a locale file is ControlCharacter at its line and column, not a failure to draw a sharing image', async () => {
    const file = LOCALES[0]!
    const text = site.text(file).replace(/^( +services: )Services$/m, '$1\u0013ervices')
    const line = text.split('\n').findIndex((l) => l.includes('\u0013')) + 1
    const { exit, diagnostics } = await site.buildWith({ [file]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${file}:${line}:13  ControlCharacter  The text holds the control character U+0013`)])
  })

  test('a control character written as an escape in front matter is ControlCharacter at its value', async () => {
    const text = pageFile({ title: 'Bell \u0007', description: 'An escaped bell.', template: 'page' }, {}, 'Text.')
    expect(text).toContain('"Bell \\a"')
    const { exit, diagnostics } = await site.buildWith({ [NEW_ARTICLE]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${NEW_ARTICLE}:2:8  ControlCharacter  The text holds the control character U+0007`)])
  })

  test('a tag ending in ":" before a line break, in a flow list, is a tag when quoted and InvalidFrontMatter when plain', async () => {
    const data = { title: 'Colons', description: 'A tag with a colon.', reviewedBy: 'dr-evelyn-quah', reviewedOn: '2026-10-01', date: '2026-10-01', author: 'dr-evelyn-quah', tags: ['before:\nafter'] }
    const flow = { collectionStyle: 'flow', lineWidth: 0 } as const
    // yaml 2.9 writes the tag plain, which YAML reads as a key and its value: the build is right to refuse it.
    const plain = `---\n${stringify(data, flow)}---\n\nText.\n`
    const refused = await site.buildWith({ [NEW_ARTICLE]: plain })
    expect(refused.exit).toBe(1)
    expect(refused.diagnostics.map(formatDiagnostic)).toEqual([expect.stringMatching(new RegExp(`^${NEW_ARTICLE}:\\d+:\\d+  InvalidFrontMatter  Front matter field "tags.0" must be text`))])
    const quoted = await site.buildWith({ [NEW_ARTICLE]: pageFile(data, flow, 'Text.') })
    expect(quoted.exit, quoted.diagnostics.map(formatDiagnostic).join('\n')).toBe(0)
  })

  test('an alias whose anchor comes later or never is InvalidYaml at the alias; one set before builds', async () => {
    const file = LOCALES[0]!
    const text = site.text(file).replace(/^( +services: )Services$/m, '$1*later')
    const line = text.split('\n').findIndex((l) => l.includes('*later')) + 1
    const locale = await site.buildWith({ [file]: text })
    expect(locale.exit).toBe(1)
    expect(locale.diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${file}:${line}:13  InvalidYaml  YAML could not be parsed: the alias *later names no anchor set before it (&later).`)])
    const page = (title: string, description: string) => `---\ntitle: ${title}\ndescription: ${description}\ntemplate: page\n---\n\nText.\n`
    const early = await site.buildWith({ [NEW_ARTICLE]: page('*same', '&same Said twice.') })
    expect(early.diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${NEW_ARTICLE}:2:8  InvalidYaml  YAML could not be parsed: the alias *same names no anchor`)])
    const set = await site.buildWith({ [NEW_ARTICLE]: page('&same Said twice.', '*same') })
    expect(set.exit, set.diagnostics.map(formatDiagnostic).join('\n')).toBe(0)
  })

  test('aliases that repeat a value past the parser\'s limit are InvalidYaml at the first alias', async () => {
    const levels = ['&a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((name, i) => `&${name} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`)]
    const text = `---\ntitle: Laughs\ndescription: Aliases.\ntemplate: page\nlaughs:\n${levels.map((l) => `  - ${l}`).join('\n')}\n---\n\nText.\n`
    const { exit, diagnostics } = await site.buildWith({ [NEW_ARTICLE]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${NEW_ARTICLE}:7:9  InvalidYaml  YAML could not be parsed: its aliases repeat values more times than a site file needs.`)])
  })

  test('a slug longer than a folder name may be is InvalidFrontMatter at its line', async () => {
    const text = pageFile({ title: 'Long', description: 'A long slug.', template: 'page', slug: 'a'.repeat(300) }, {}, 'Text.')
    const { exit, diagnostics } = await site.buildWith({ [NEW_ARTICLE]: text })
    expect(exit).toBe(1)
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringContaining(`${NEW_ARTICLE}:5:7  InvalidFrontMatter  Front matter field "slug" is invalid: must be at most 200 characters.`)])
  })
})

/** Each file of a folder and a digest of its bytes. */
const digests = (dir: string) => filesIn(dir, digestOf)

describe('the command', () => {
  test('a damaged page or locale file: exit 1 naming it, no stack trace, the previous dist/ byte for byte', async () => {
    const root = copySite()
    const out = join(root, 'dist')
    const first = await runCli(['--root', root, '--out', out])
    expect(first.status, first.stderr).toBe(0)
    const previous = digests(out)
    // A byte that is never UTF-8 (0xFF) in the first lines is always an error naming the file; other damage comes with it.
    const badByteAt = fc.integer({ min: 4, max: 120 })
    const files = [...PAGES.map(([file]) => file), ...LOCALES]
    await fc.assert(fc.asyncProperty(fc.constantFrom(...files), badByteAt, damages, async (file, offset, list) => {
      const original = readFileSync(join(root, file))
      const bytes = damaged(original, list)
      const at = Math.min(offset, bytes.length)
      writeFileSync(join(root, file), Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at)]))
      try {
        const { status, stderr } = await runCli(['--root', root, '--out', out])
        expect(status, stderr).toBe(1)
        expect(stderr).toContain(`${file}:`)
        expect(stderr).not.toMatch(/\n\s+at |internal error/i)
        // Every problem printed names a file of the site.
        for (const problem of stderr.split('\n').filter((l) => /^\S+ {2}(warning )?[A-Z]\w+ {2}/.test(l))) expect(problem).toMatch(/^(content|locales|templates)\//)
        expect(digests(out)).toEqual(previous)
      } finally {
        writeFileSync(join(root, file), original)
      }
    }), runOptions(6, { endOnFailure: true }))
    rmSync(root, { recursive: true, force: true })
  }, 120_000)
})
