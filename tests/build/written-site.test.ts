/**
 * A build after Markdown bodies alone changed replaces the pages of those bodies in the folder the
 * last build wrote (src/build/written-site.ts). After each edit below, the output folder, the
 * problems and the summary must be those of a full build of the same sources, made in a copy of
 * the site that keeps no record of a last build; edits that change more than bodies take the
 * full build, with the same outcome.
 */
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { copySite, digestOf, edit, EDITED, filesIn } from '../support/helpers.ts'

const site = copySite()
const out = join(site, 'dist')
const reference = copySite()

const run = () => build({ root: site, out })

/** The output folder, problems and summary of a full build of the site's sources as they are now. */
async function expectSameAsFull(result: BuildResult): Promise<void> {
  for (const folder of ['content', 'locales', 'static']) {
    rmSync(join(reference, folder), { recursive: true })
    cpSync(join(site, folder), join(reference, folder), { recursive: true })
  }
  for (const record of ['last-build.bin', 'written-site.bin']) rmSync(join(reference, '.clinic/cache', record), { force: true })
  const full = await build({ root: reference, out: join(reference, 'dist') })
  expect(full.patched).toBeUndefined()
  expect(result.ok).toBe(full.ok)
  expect(result.diagnostics).toEqual(full.diagnostics)
  if (!full.ok) return
  expect(result.summary).toEqual(full.summary)
  const [patched, fresh] = [filesIn(out, digestOf), filesIn(join(reference, 'dist'), digestOf)]
  expect([...patched.keys()]).toEqual([...fresh.keys()])
  expect([...fresh].filter(([path, hash]) => patched.get(path) !== hash).map(([path]) => path)).toEqual([])
}

const { ARTICLE, ARTICLE_PAGE, OTHER, CONTACT_CN, BLOG } = EDITED

describe('builds after Markdown bodies alone changed', () => {
  beforeAll(async () => {
    expect((await run()).ok).toBe(true)
  })

  test('a sentence added: its page alone is rendered and replaced, and the next build finds nothing to do', async () => {
    appendFileSync(join(site, ARTICLE), '\nA sentence added between builds.\n')
    const result = await run()
    expect(result.patched).toBe(true)
    expect(result.pages).toEqual({ rendered: 1, reused: expect.any(Number) })
    expect(readFileSync(join(out, ARTICLE_PAGE), 'utf8')).toContain('A sentence added between builds.')
    // Its time counts from the build's start: the sources' read, then the patch's own stages.
    const { read, parse, render, write, total } = result.timings
    expect(Object.keys(result.timings)).toEqual(['read', 'parse', 'render', 'write', 'total'])
    expect(total).toBeGreaterThanOrEqual(read! + parse! + render! + write!)
    await expectSameAsFull(result)
    expect((await run()).upToDate).toBe(true)
  })

  test('two files of two languages at once, then the articles index and each page of its listing', async () => {
    edit(site, ARTICLE, (t) => `${t}\n## Questions to ask beforehand\n\nWrite them down.\n`)
    edit(site, CONTACT_CN, (t) => t.replace('## 联系方式', '## 联系我们的方式'))
    const both = await run()
    expect(both.patched).toBe(true)
    expect(both.pages!.rendered).toBe(2)
    await expectSameAsFull(both)

    edit(site, BLOG, (t) => t.replace('## About these articles', '## About our articles'))
    const index = await run()
    expect(index.patched).toBe(true)
    expect(readFileSync(join(out, 'blog/index.html'), 'utf8')).toContain('About our articles')
    await expectSameAsFull(index)
  })

  test('a warning found in a body is reported, moved, and gone as the body changes', async () => {
    appendFileSync(join(site, OTHER), '\nSome <span style="color:red">red</span> words.\n')
    const warned = await run()
    expect(warned.patched).toBe(true)
    expect(warned.diagnostics).toMatchObject([{ code: 'UnsafeMarkup', file: OTHER, severity: 'warning' }])
    expect(warned.summary!.warnings).toBe(1)
    await expectSameAsFull(warned)

    edit(site, OTHER, (t) => t.replace('Some <span', 'A line before.\n\nSome <span'))
    const moved = await run()
    expect(moved.diagnostics[0]!.line).toBe(warned.diagnostics[0]!.line! + 2)
    await expectSameAsFull(moved)

    edit(site, OTHER, (t) => t.replace(/Some <span[^\n]*\n/, 'Some words.\n'))
    const clean = await run()
    expect(clean.patched).toBe(true)
    expect(clean.diagnostics).toEqual([])
    await expectSameAsFull(clean)
  })

  test('an image losing its alt text fails the build and leaves the folder as it was; the fix is patched in', async () => {
    appendFileSync(join(site, ARTICLE), '\n![The clinic\'s mark](/favicon.svg)\n')
    const added = await run() // a new image: the full build (an SVG, which is not encoded again)
    expect(added.patched).toBeUndefined()
    await expectSameAsFull(added)

    const before = filesIn(out, digestOf)
    edit(site, ARTICLE, (t) => t.replace("![The clinic's mark]", '![]'))
    const failed = await run()
    expect(failed.patched).toBe(true)
    expect(failed.ok).toBe(false)
    expect(failed.diagnostics).toMatchObject([{ code: 'MissingAltText', file: ARTICLE }])
    expect(filesIn(out, digestOf)).toEqual(before)
    await expectSameAsFull(failed)

    edit(site, ARTICLE, (t) => t.replace('![]', '![A mark of two arches]'))
    const fixed = await run()
    expect(fixed.patched).toBe(true)
    expect(readFileSync(join(out, ARTICLE_PAGE), 'utf8')).toContain('A mark of two arches')
    await expectSameAsFull(fixed)
  })

  test('a new link, a front matter edit, a message and a new file take the full build, and bodies are patched after them', async () => {
    appendFileSync(join(site, ARTICLE), '\nSee [our contact page](/contact/).\n')
    const linked = await run()
    expect(linked.patched).toBeUndefined()
    await expectSameAsFull(linked)

    edit(site, OTHER, (t) => t.replace(/^title: .*$/m, 'title: Double Eyelid Surgery, Step by Step'))
    const retitled = await run()
    expect(retitled.patched).toBeUndefined()
    await expectSameAsFull(retitled)

    edit(site, 'locales/en-SG.yaml', (t) => t.replace('  backHome: Back to the home page', '  backHome: Back to the start'))
    const message = await run()
    expect(message.patched).toBeUndefined()
    await expectSameAsFull(message)

    const added = 'content/en/blog/what-to-bring-on-the-day.md'
    writeFileSync(join(site, added), '---\ntitle: What to Bring on the Day\ndescription: A short list for the day of surgery.\ndate: 2026-04-02\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [preparation]\n---\n\nBring your medicines and a list of questions.\n')
    const created = await run()
    expect(created.patched).toBeUndefined()
    await expectSameAsFull(created)

    appendFileSync(join(site, added), '\nWear loose clothes.\n')
    const patched = await run()
    expect(patched.patched).toBe(true)
    await expectSameAsFull(patched)
  })

  test('an output folder changed since the last build is built whole', async () => {
    writeFileSync(join(out, 'contact/index.html'), '<!doctype html><title>Changed by hand</title>')
    appendFileSync(join(site, ARTICLE), '\nOne more sentence after a change by hand.\n')
    const result = await run()
    expect(result.patched).toBeUndefined()
    await expectSameAsFull(result)
  })
})
