/**
 * Dev's builds (src/serve/dev/run-build.ts) on a copy of the site, saves after saves: a mistake in
 * one page's own file holds that page at its last good text while every other page is built; a
 * save that breaks other pages (a removed page they link to) is held instead; a mistake in what
 * every page reads holds the whole site. Each outcome is compared with what a visitor is served.
 */
import { existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { Preview, type PreviewResult } from '../../../src/serve/dev/run-build.ts'
import { build } from '../../../src/build/build.ts'
import { copySite, edit } from '../../support/helpers.ts'

const CONTACT = 'content/en/contact.md'
const PRIVACY = 'content/en/privacy.md'
const RHINOPLASTY = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
const CHOOSING = 'content/en/blog/how-to-choose-the-right-plastic-surgeon.md'
const NEW_PAGE = 'content/en/blog/aftercare-questions.md'

const site = copySite()
const preview = new Preview(site)
let first: PreviewResult

const html = (result: PreviewResult, output: string) => {
  const file = result.files.find((f) => f.path === output)
  return file === undefined ? undefined : String(file.contents)
}
const save = async (changes: Record<string, string | null>): Promise<PreviewResult> => {
  for (const [file, text] of Object.entries(changes)) {
    if (text === null) unlinkSync(join(site, file))
    else writeFileSync(join(site, file), text)
  }
  return preview.build(Object.keys(changes))
}

const LINKING_TO_CHOOSING = ['comprehensive-guide-to-plastic-surgery', 'benefits-of-motiva-breast-implant', 'how-to-prepare-for-a-plastic-surgery-consultation',
  'psychological-benefits-cosmetic-surgery', 'debunking-myths-about-plastic-surgery'].map((name) => `content/en/blog/${name}.md`)
const LOCALE = 'locales/en-SG.yaml'

/** The sources the tests change, as copied (null: absent), so that each test starts from them whatever the last one left. */
const sources = new Map<string, string | null>()
const onDisk = (file: string) => existsSync(join(site, file)) ? readFileSync(join(site, file), 'utf8') : null
const original = (file: string) => sources.get(file) as string

beforeAll(async () => {
  for (const file of [CONTACT, PRIVACY, RHINOPLASTY, CHOOSING, NEW_PAGE, LOCALE, ...LINKING_TO_CHOOSING]) sources.set(file, onDisk(file))
  first = await preview.build([])
  expect(first.ok).toBe(true)
}, 120_000)

afterEach(async () => {
  const differ = Object.fromEntries([...sources].filter(([file, text]) => onDisk(file) !== text))
  if (Object.keys(differ).length > 0) expect((await save(differ)).held).toEqual([])
}, 60_000)

afterAll(() => rmSync(site, { recursive: true, force: true }))

describe("dev holds a page whose own file has a mistake, and builds every other page", () => {
  test('broken front matter saved with another page: that page stays as it last built, the other is built', async () => {
    const [contact, privacy] = [original(CONTACT), original(PRIVACY)]
    const result = await save({ [CONTACT]: contact.replace(/^description: (.*)$/m, 'description: Visit: the clinic'), [PRIVACY]: `${privacy}\nA sentence saved beside a mistake.\n` })
    expect(result.ok).toBe(true)
    expect(result.held).toEqual([{ file: CONTACT, urls: ['/contact/'], breaksOthers: false, diagnostics: [expect.objectContaining({ code: 'InvalidYaml', file: CONTACT, line: 4 })] }])
    expect(html(result, 'contact/index.html')).toBe(html(first, 'contact/index.html'))
    expect(html(result, 'privacy/index.html')).toContain('A sentence saved beside a mistake.')

    // The fix is built, and nothing is held any more.
    const fixed = await save({ [CONTACT]: contact.replace(/^description: (.*)$/m, 'description: "Visit: the clinic, by appointment."'), [PRIVACY]: privacy })
    expect(fixed.ok).toBe(true)
    expect(fixed.held).toEqual([])
    expect(html(fixed, 'contact/index.html')).toContain('Visit: the clinic, by appointment.')
  }, 60_000)

  test('a body refused and an image that does not exist, in two pages of one save: both held, with their own errors', async () => {
    const [rhinoplasty, privacy] = [original(RHINOPLASTY), original(PRIVACY)]
    const result = await save({
      [RHINOPLASTY]: `${rhinoplasty}\n${'*a **a '.repeat(4000)}b${' a** a*'.repeat(4000)}\n`,
      [PRIVACY]: `${privacy}\n![A room](/images/no-such-room.jpg)\n`,
    })
    expect(result.ok).toBe(true)
    const held = new Map(result.held.map((page) => [page.file, page]))
    expect([...held.keys()].sort()).toEqual([RHINOPLASTY, PRIVACY].sort())
    expect(held.get(RHINOPLASTY)!.diagnostics.map((d) => d.code)).toEqual(['MarkdownTooComplex'])
    expect(held.get(RHINOPLASTY)!.urls).toEqual(['/blog/how-to-prepare-for-a-rhinoplasty/'])
    expect(held.get(PRIVACY)!.diagnostics.map((d) => d.code)).toEqual(['MissingImage'])
    expect(held.get(PRIVACY)!.urls).toEqual(['/privacy/'])
    expect(html(result, 'blog/how-to-prepare-for-a-rhinoplasty/index.html')).toBe(html(first, 'blog/how-to-prepare-for-a-rhinoplasty/index.html'))
    expect(html(result, 'privacy/index.html')).toBe(html(first, 'privacy/index.html'))
  }, 60_000)

  test('a new page with a mistake has no page yet; a page saved with a link to it is held at its last good text', async () => {
    const privacy = original(PRIVACY)
    const result = await save({
      [NEW_PAGE]: '---\ntitle: Aftercare questions\n---\n\nAsk us.\n',
      [PRIVACY]: `${privacy}\nSee [aftercare questions](/blog/aftercare-questions/).\n`,
    })
    expect(result.ok).toBe(true)
    const held = new Map(result.held.map((page) => [page.file, page]))
    expect(held.get(NEW_PAGE)!.urls).toEqual([])
    expect(held.get(NEW_PAGE)!.diagnostics).toContainEqual(expect.objectContaining({ code: 'InvalidFrontMatter', file: NEW_PAGE, message: 'Front matter field "description" is required.' }))
    expect(held.get(PRIVACY)!.diagnostics.map((d) => d.code)).toEqual(['BrokenLink'])
    expect(result.table!.byUrl.has('/blog/aftercare-questions/')).toBe(false)
    expect(html(result, 'privacy/index.html')).toBe(html(first, 'privacy/index.html'))
  }, 60_000)

  test('a page removed while others link to it stays as it last built, named with the links it would break', async () => {
    const result = await save({ [CHOOSING]: null })
    expect(result.ok).toBe(true)
    expect(result.held.map((page) => page.file)).toEqual([CHOOSING])
    expect(result.held[0]!.breaksOthers).toBe(true)
    const errors = result.held[0]!.diagnostics
    expect(errors.length).toBeGreaterThanOrEqual(5)
    expect(errors.every((d) => d.code === 'BrokenLink' && d.message.includes('/blog/how-to-choose-the-right-plastic-surgeon/'))).toBe(true)
    expect(html(result, 'blog/how-to-choose-the-right-plastic-surgeon/index.html')).toBe(html(first, 'blog/how-to-choose-the-right-plastic-surgeon/index.html'))

    // The links taken out, the removal is built.
    for (const file of LINKING_TO_CHOOSING) edit(site, file, (t) => t.replace(/\[([^\]]+)\]\(\/blog\/how-to-choose-the-right-plastic-surgeon\/\)/g, '$1'))
    const removed = await preview.build(LINKING_TO_CHOOSING)
    expect(removed.held).toEqual([])
    expect(html(removed, 'blog/how-to-choose-the-right-plastic-surgeon/index.html')).toBeUndefined()
  }, 60_000)

  test('a mistake in what every page reads holds the whole site, as before', async () => {
    const locale = original(LOCALE)
    const contact = original(CONTACT)
    const result = await save({ [LOCALE]: `${locale}\n: not yaml [\n`, [CONTACT]: contact.replace(/^description: (.*)$/m, 'description: Visit: the clinic') })
    expect(result.ok).toBe(false)
    expect(result.held).toEqual([])
    expect(result.diagnostics.filter((d) => d.severity === 'error').some((d) => d.file?.startsWith('locales/'))).toBe(true)
  }, 60_000)

  test('after those saves, every page is what a build from nothing makes of the sources', async () => {
    const last = await preview.build([])
    const clean = await build({ root: site, write: false, drafts: true, translationFallback: true, cache: false })
    expect(last.held).toEqual([])
    expect(new Map(last.files.map((f) => [f.path, String(f.contents)]))).toEqual(new Map(clean.files.map((f) => [f.path, String(f.contents)])))
  }, 120_000)
})
