/**
 * The dev server's saves that change Markdown bodies alone patch the last build in memory
 * (src/build/body-edits.ts) instead of running every stage. Each save below is followed by such a
 * rebuild, and its files, problems and summary must be those of a build from nothing; saves that
 * change more than a body must take the full build, with the same outcome.
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { emptyCache } from '../../src/build/cache.ts'
import { packageDir } from '../../src/util/package.ts'
import { readProject, rereadProject } from '../../src/content/read.ts'
import type { Project } from '../../src/types.ts'
import { contentsOf, copySite, edit, EDITED } from '../support/helpers.ts'

const site = copySite()
const cache = emptyCache()
let project: Project
const options = { root: site, write: false, drafts: true, translationFallback: true } as const

async function save(...changed: string[]): Promise<BuildResult> {
  project = await rereadProject(project, changed, packageDir)
  return build({ ...options, project, cache })
}

/** The same files (contents, and the versions of pages), problems and summary as a build from nothing. */
async function expectSameAsCold(result: BuildResult): Promise<void> {
  const cold = await build({ ...options, cache: false })
  expect(result.ok).toBe(cold.ok)
  expect(result.diagnostics).toEqual(cold.diagnostics)
  if (!cold.ok) return
  const [warm, fresh] = [contentsOf(result.files), contentsOf(cold.files)]
  expect([...warm.keys()]).toEqual([...fresh.keys()])
  expect([...fresh].filter(([path, text]) => warm.get(path) !== text).map(([path]) => path)).toEqual([])
  const pageVersions = (r: BuildResult) => r.files.filter((f) => f.path.endsWith('.html')).map((f) => f.version)
  expect(pageVersions(result)).toEqual(pageVersions(cold))
  expect(result.summary).toEqual(cold.summary)
}

const { ARTICLE, ARTICLE_PAGE, OTHER, CONTACT_CN, BLOG } = EDITED

describe('saves that change bodies alone', () => {
  beforeAll(async () => {
    project = await readProject(site, packageDir)
    expect((await build({ ...options, project, cache })).ok).toBe(true)
  })

  test('a sentence added: the article is patched in, and the rest is the last build', async () => {
    appendFileSync(join(site, ARTICLE), '\nA sentence added while editing.\n')
    const result = await save(ARTICLE)
    expect(result.patched).toBe(true)
    expect(result.pages!.rendered).toBe(1)
    expect(contentsOf(result.files).get(ARTICLE_PAGE)).toContain('A sentence added while editing.')
    expect(result.timings.total).toBeGreaterThanOrEqual(result.timings.parse! + result.timings.render!)
    await expectSameAsCold(result)
  })

  test('headings renamed and moved in two files of two languages at once', async () => {
    edit(site, ARTICLE, (t) => `${t}\n## Questions to ask beforehand\n\nWrite them down.\n`)
    edit(site, CONTACT_CN, (t) => t.replace('## 联系方式', '## 联系我们的方式'))
    const result = await save(ARTICLE, CONTACT_CN)
    expect(result.patched).toBe(true)
    expect(result.pages!.rendered).toBe(2)
    expect(contentsOf(result.files).get('cn/contact/index.html')).toContain('联系我们的方式')
    await expectSameAsCold(result)
  })

  test("the articles index: each page of the listing that shows its body", async () => {
    edit(site, BLOG, (t) => t.replace('## About these articles', '## About our articles'))
    const result = await save(BLOG)
    expect(result.patched).toBe(true)
    expect(result.pages!.rendered).toBe(result.table!.routes.filter((r) => r.docId === BLOG).length)
    expect(contentsOf(result.files).get('blog/index.html')).toContain('About our articles')
    await expectSameAsCold(result)
  })

  test('markup the sanitiser removes: its warning, then the warning moved by a line above it, then gone', async () => {
    appendFileSync(join(site, OTHER), '\nSome <span style="color:red">red</span> words.\n')
    const warned = await save(OTHER)
    expect(warned.patched).toBe(true)
    expect(warned.diagnostics).toMatchObject([{ code: 'UnsafeMarkup', file: OTHER, severity: 'warning' }])
    await expectSameAsCold(warned)

    edit(site, OTHER, (t) => t.replace('Some <span', 'A line before.\n\nSome <span'))
    const moved = await save(OTHER)
    expect(moved.patched).toBe(true)
    expect(moved.diagnostics[0]!.line).toBe(warned.diagnostics[0]!.line! + 2)
    await expectSameAsCold(moved)

    edit(site, OTHER, (t) => t.replace(/Some <span[^\n]*\n/, 'Some words.\n'))
    const clean = await save(OTHER)
    expect(clean.patched).toBe(true)
    expect(clean.diagnostics).toEqual([])
    await expectSameAsCold(clean)
  })

  test('an edit undone: the page is again as it was', async () => {
    const before = contentsOf((await save()).files)
    edit(site, ARTICLE, (t) => `${t}\nA second thought.\n`)
    expect((await save(ARTICLE)).patched).toBe(true)
    edit(site, ARTICLE, (t) => t.replace('\nA second thought.\n', ''))
    const undone = await save(ARTICLE)
    expect(undone.patched).toBe(true)
    expect(contentsOf(undone.files)).toEqual(before)
    await expectSameAsCold(undone)
  })

  test('an image whose alt text is removed fails the save, and the fix is patched in', async () => {
    appendFileSync(join(site, ARTICLE), '\n![The clinic\'s waiting area](/images/arches.jpg)\n')
    const added = await save(ARTICLE) // a new image: the full build
    expect(added.patched).toBeUndefined()
    await expectSameAsCold(added)

    edit(site, ARTICLE, (t) => t.replace("![The clinic's waiting area]", '![]'))
    const failed = await save(ARTICLE)
    expect(failed.patched).toBe(true)
    expect(failed.ok).toBe(false)
    expect(failed.diagnostics).toMatchObject([{ code: 'MissingAltText', file: ARTICLE }])
    await expectSameAsCold(failed)

    edit(site, ARTICLE, (t) => t.replace('![]', '![Arches in the waiting area]'))
    const fixed = await save(ARTICLE)
    expect(fixed.patched).toBe(true)
    expect(contentsOf(fixed.files).get(ARTICLE_PAGE)).toContain('Arches in the waiting area')
    await expectSameAsCold(fixed)
  })

  test('a new link, a front matter edit, a message and a new file each take the full build', async () => {
    appendFileSync(join(site, ARTICLE), '\nSee [our contact page](/contact/).\n')
    const linked = await save(ARTICLE)
    expect(linked.patched).toBeUndefined()
    await expectSameAsCold(linked)

    edit(site, OTHER, (t) => t.replace(/^title: .*$/m, 'title: Double Eyelid Surgery, Step by Step'))
    const retitled = await save(OTHER)
    expect(retitled.patched).toBeUndefined()
    await expectSameAsCold(retitled)

    edit(site, 'locales/en-SG.yaml', (t) => t.replace('  backHome: Back to the home page', '  backHome: Back to the start'))
    const message = await save('locales/en-SG.yaml')
    expect(message.patched).toBeUndefined()
    await expectSameAsCold(message)

    const added = 'content/en/blog/what-to-bring-on-the-day.md'
    writeFileSync(join(site, added), '---\ntitle: What to Bring on the Day\ndescription: A short list for the day of surgery.\ndate: 2026-04-02\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [preparation]\n---\n\nBring your medicines and a list of questions.\n')
    const created = await save(added)
    expect(created.patched).toBeUndefined()
    await expectSameAsCold(created)

    // And bodies are patched again after them.
    appendFileSync(join(site, added), '\nWear loose clothes.\n')
    const patched = await save(added)
    expect(patched.patched).toBe(true)
    await expectSameAsCold(patched)
  })

  test('a static file the build writes over keeps its warning through the saves patched in', async () => {
    writeFileSync(join(site, 'static/sitemap.xml'), '<urlset/>')
    const added = await save('static/sitemap.xml')
    expect(added.patched).toBeUndefined()
    expect(added.diagnostics).toMatchObject([{ code: 'StaticFileReplaced', file: 'static/sitemap.xml', severity: 'warning' }])
    appendFileSync(join(site, ARTICLE), '\nOne more sentence beside a warning.\n')
    const patched = await save(ARTICLE)
    expect(patched.patched).toBe(true)
    await expectSameAsCold(patched)
    rmSync(join(site, 'static/sitemap.xml'))
    expect((await save('static/sitemap.xml')).diagnostics).toEqual([])
  })
})
