/**
 * Rebuilds that re-use earlier work (the dev server's: only the saved files re-read, unchanged
 * pages taken from the cache) must write exactly what a build from nothing writes. Each edit
 * below is followed by such a rebuild, compared file by file with a cold build of the same folder.
 */
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { emptyCache } from '../../src/build/cache.ts'
import { packageDir } from '../../src/util/package.ts'
import { readProject, rereadProject } from '../../src/content/read.ts'
import type { Project } from '../../src/types.ts'
import { contentsOf, copySite, edit } from '../support/helpers.ts'

const site = copySite()
const cache = emptyCache()
let project: Project
// Two render threads, as large sites use: pages come back from them in another order than asked.
const options = { root: site, write: false, drafts: true, translationFallback: true, threads: 2 } as const

/** A rebuild as the dev server runs it after `changed` were saved. */
async function rebuild(...changed: string[]): Promise<BuildResult> {
  project = await rereadProject(project, changed, packageDir)
  return build({ ...options, project, cache })
}

async function expectSameAsCold(result: BuildResult): Promise<void> {
  // On this thread, whose modules are loaded: render threads start by loading the sources through
  // tsx, three seconds of each build here.
  const cold = await build({ ...options, cache: false, threads: 0 })
  expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true)
  expect(cold.ok).toBe(true)
  const [warm, fresh] = [contentsOf(result.files), contentsOf(cold.files)]
  expect([...warm.keys()].sort()).toEqual([...fresh.keys()].sort())
  const differing = [...fresh].filter(([path, text]) => warm.get(path) !== text).map(([path]) => path)
  expect(differing).toEqual([])
}

const ARTICLE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
const SERVICE = 'content/en/services/ear.md'

describe('incremental rebuilds', () => {
  let total = 0
  beforeAll(async () => {
    project = await readProject(site, packageDir)
    const first = await build({ ...options, project, cache })
    expect(first.ok).toBe(true)
    total = first.table!.routes.length
  })

  test('nothing changed: no page is rendered again', async () => {
    const result = await rebuild()
    expect(result.pages).toEqual({ reused: total, rendered: 0 })
    await expectSameAsCold(result)
  })

  test("an article's body: that article alone is rendered again", async () => {
    appendFileSync(join(site, ARTICLE), '\nA sentence added while editing.\n')
    const result = await rebuild(ARTICLE)
    expect(result.pages!.rendered).toBe(1)
    expect(contentsOf(result.files).get('blog/how-to-prepare-for-a-rhinoplasty/index.html')).toContain('A sentence added while editing.')
    await expectSameAsCold(result)
  })

  test("an article's title: the pages that show it, not the whole site", async () => {
    edit(site, ARTICLE, (t) => t.replace(/^title: .*$/m, 'title: Getting Ready for Rhinoplasty'))
    const result = await rebuild(ARTICLE)
    const showing = [...contentsOf(result.files)].filter(([path, text]) => path.endsWith('.html') && text.includes('Getting Ready for Rhinoplasty')).length
    expect(showing).toBeGreaterThan(2) // the article, the blog index, related articles, service sidebars
    expect(result.pages!.rendered).toBeGreaterThanOrEqual(showing)
    expect(result.pages!.rendered).toBeLessThan(total / 2)
    await expectSameAsCold(result)
  })

  test("a service's title: every page of its language (the navigation lists it)", async () => {
    edit(site, SERVICE, (t) => t.replace(/^title: .*$/m, 'title: Otoplasty and Earlobe Repair'))
    const result = await rebuild(SERVICE)
    const english = result.table!.routes.filter((r) => r.locale === 'en').length
    expect(result.pages!.rendered).toBeGreaterThanOrEqual(english)
    await expectSameAsCold(result)
  })

  test('an article added, then removed', async () => {
    const added = 'content/en/blog/a-note-on-recovery-at-home.md'
    writeFileSync(join(site, added), readFileSync(join(site, ARTICLE), 'utf8').replace(/^title: .*$/m, 'title: A Note on Recovery at Home').replace(/^date: .*$/m, 'date: 2026-11-01'))
    await expectSameAsCold(await rebuild(added))
    rmSync(join(site, added))
    await expectSameAsCold(await rebuild(added))
  })

  test('a link added to a body changes the sidebars that follow links', async () => {
    appendFileSync(join(site, ARTICLE), '\nSee also [ear surgery](/services/ear/).\n')
    const result = await rebuild(ARTICLE)
    expect(contentsOf(result.files).get('services/ear/index.html')).toContain('Getting Ready for Rhinoplasty')
    await expectSameAsCold(result)
  })

  test('a message, the site configuration and a static image', async () => {
    // A Chinese message renders the Chinese pages; the language's name, which the English pages'
    // switcher shows, renders the English ones too.
    edit(site, 'locales/zh-CN.yaml', (t) => t.replace(/^(\s*languages: ).*$/m, '$1会说的语言'))
    const chinese = await rebuild('locales/zh-CN.yaml')
    expect(chinese.pages!.rendered).toBe(chinese.table!.routes.filter((r) => r.locale === 'cn').length)
    await expectSameAsCold(chinese)
    edit(site, 'locales/en-SG.yaml', (t) => t.replace(/^(\s*name: ).*$/m, '$1English (Singapore)'))
    await expectSameAsCold(await rebuild('locales/en-SG.yaml'))
    edit(site, 'content/site.yaml', (t) => t.replace(/^(\s*pageSize: ).*$/m, '$12'))
    await expectSameAsCold(await rebuild('content/site.yaml'))
    copyFileSync(join(site, 'static/images/arches.jpg'), join(site, 'static/images/arches-copy.jpg'))
    await expectSameAsCold(await rebuild('static/images/arches-copy.jpg'))
  })

  test('an SVG drawing shown in an article, redrawn at another size', async () => {
    const svg = (w: number, h: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#ccc"/></svg>`
    writeFileSync(join(site, 'static/images/diagram.svg'), svg(640, 360))
    appendFileSync(join(site, ARTICLE), '\n![A diagram of the nose](/images/diagram.svg)\n')
    const first = await rebuild('static/images/diagram.svg', ARTICLE)
    expect(contentsOf(first.files).get('blog/how-to-prepare-for-a-rhinoplasty/index.html')).toMatch(/<img[^>]*diagram\.svg[^>]*width="640" height="360"/)
    writeFileSync(join(site, 'static/images/diagram.svg'), svg(100, 50))
    const second = await rebuild('static/images/diagram.svg')
    expect(contentsOf(second.files).get('blog/how-to-prepare-for-a-rhinoplasty/index.html')).toMatch(/<img[^>]*diagram\.svg[^>]*width="100" height="50"/)
    await expectSameAsCold(second)
  })

  test('an image beside an article: referenced before it exists, added, redrawn, removed', async () => {
    const image = 'content/en/blog/rhinoplasty-recovery-timeline.png'
    const reference = '\n![Recovery timeline](rhinoplasty-recovery-timeline.png)\n'
    const draw = (width: number) => sharp({ create: { width, height: 400, channels: 3, background: '#a8b8c8' } }).png().toFile(join(site, image))
    const articlePage = (result: BuildResult) => contentsOf(result.files).get('blog/how-to-prepare-for-a-rhinoplasty/index.html')
    appendFileSync(join(site, ARTICLE), reference)
    const missing = await rebuild(ARTICLE)
    expect(missing.diagnostics).toMatchObject([{ code: 'MissingImage', file: ARTICLE }])
    await draw(600)
    const added = await rebuild(image)
    expect(articlePage(added)).toMatch(/<img src="\/assets\/images\/rhinoplasty-recovery-timeline\.\w+-600\.png"[^>]* width="600" height="400"/)
    expect(contentsOf(added.files).has('en/blog/rhinoplasty-recovery-timeline.png')).toBe(true)
    await expectSameAsCold(added)
    await draw(800)
    const redrawn = await rebuild(image)
    expect(articlePage(redrawn)).toMatch(/<img [^>]* width="800" height="400"/)
    await expectSameAsCold(redrawn)
    edit(site, ARTICLE, (t) => t.replace(reference, ''))
    rmSync(join(site, image))
    const removed = await rebuild(image, ARTICLE)
    expect(contentsOf(removed.files).has('en/blog/rhinoplasty-recovery-timeline.png')).toBe(false)
    await expectSameAsCold(removed)
  })

  test("a template's source: the pages of that template, or every page for the layout", async () => {
    // The templates' code cannot be reloaded in this process, so the edits are comments: what
    // is tested is which pages the cache gives up, and that they come out as before.
    const withComment = (path: string) => ({ ...project, templateFiles: project.templateFiles.map((f) => (f.path === path ? { ...f, text: `${f.text}\n// edited\n` } : f)) })
    const original = project
    const doctors = (await rebuild()).table!.routes.filter((r) => r.template === 'doctor').length
    expect(doctors).toBeGreaterThan(0)
    project = withComment('templates/pages/Doctor.tsx')
    const doctorEdit = await build({ ...options, project, cache })
    expect(doctorEdit.pages!.rendered).toBe(doctors)
    await expectSameAsCold(doctorEdit)
    project = withComment('templates/Layout.tsx')
    const layoutEdit = await build({ ...options, project, cache })
    expect(layoutEdit.pages).toEqual({ reused: 0, rendered: layoutEdit.table!.routes.length })
    project = original
  })

  test('a page marked as a draft, and a translation removed', async () => {
    edit(site, 'content/en/blog/benefits-of-motiva-breast-implant.md', (t) => t.replace(/^title: /m, 'draft: true\ntitle: '))
    rmSync(join(site, 'content/cn/privacy.md'))
    await expectSameAsCold(await rebuild('content/en/blog/benefits-of-motiva-breast-implant.md', 'content/cn/privacy.md'))
  })
})
