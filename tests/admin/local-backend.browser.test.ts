/**
 * An editor on their own computer: `clinic-build dev` (a real process, in a copy of the site)
 * serves /admin/ and the editor's local backend. In Chromium, the editor creates an article and
 * edits services; the files written under content/ parse with the site's schema, the rebuilt
 * pages show the edits, and the site still passes `clinic-build check`. A save writes the lines
 * of the fields the editor changed and nothing else: not a translation left as it was, not a
 * file when nothing changed. Nothing is requested from anywhere but 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseDoc } from '../../src/content/parse.ts'
import { frontMatterSchemas } from '../../src/content/schemas/front-matter.ts'
import { parseSite } from '../../src/content/site.ts'
import { launchBrowser } from '../support/browser.ts'
import { BIN, changedLines, copySite, REBUILD, runCli } from '../support/helpers.ts'
import { get } from '../support/http.ts'

const ARTICLE = 'content/en/blog/questions-to-ask-before-eyelid-surgery.md'

let site: string
let child: ChildProcess
let url: string
let output = ''
let browser: Browser
let page: Page
const outside: string[] = []

const read = (file: string) => readFileSync(join(site, file), 'utf8')
const write = (file: string, text: string) => writeFileSync(join(site, file), text)
const modified = (file: string) => statSync(join(site, file)).mtimeMs
const served = async (path: string) => (await get(`${url}${path}`)).body.toString('utf8')
/** A file as the build reads it: its diagnostics, none when it is valid. */
function parsed(file: string) {
  const { site: config } = parseSite({ path: 'content/site.yaml', text: read('content/site.yaml') })
  return parseDoc({ path: file, text: read(file) }, config!)
}

/** Publishes the entry on screen; resolves once the local backend has answered the save. */
async function publish(): Promise<void> {
  const saved = page.waitForResponse((r) => r.url().endsWith('/__clinic/cms/api/v1') && (r.request().postData() ?? '').includes('"persistEntry"'))
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Publish now' }).click()
  expect((await saved).status()).toBe(200)
}

/**
 * Opens a service in the editor, from the list, as an editor would, in a freshly loaded editor:
 * what the editor still does after an earlier save (after a new page's, it loads the page again
 * and moves to its address) can then not act on this one.
 */
async function openService(title: RegExp): Promise<void> {
  await page.goto('about:blank')
  await page.goto(`${url}/admin/#/collections/services`)
  const link = page.getByRole('link', { name: title })
  const login = page.getByRole('button', { name: 'Login' })
  await Promise.race([link.waitFor(), login.waitFor()])
  if (await login.isVisible()) await login.click()
  await link.click()
}

beforeAll(async () => {
  site = copySite()
  // Files as a person writes them, with a comment and quotes; and a shared field to clear.
  write('content/en/services/rhinoplasty.md', read('content/en/services/rhinoplasty.md').replace('title: Rhinoplasty\n', '# Checked with Dr Quah.\ntitle: "Rhinoplasty"\n'))
  for (const locale of ['en', 'cn']) write(`content/${locale}/services/liposuction.md`, read(`content/${locale}/services/liposuction.md`).replace(/\nreviewedOn: .*\n/, '$&order: 3\n'))
  child = spawn(process.execPath, [BIN, 'dev', '--root', site, '--port', '0'], { cwd: site, stdio: ['ignore', 'pipe', 'pipe'] })
  url = await new Promise<string>((started, failed) => {
    child.stdout!.on('data', (c) => {
      output += c
      const address = /Dev server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1]
      if (address) started(address)
    })
    child.stderr!.on('data', (c) => { output += c })
    child.once('exit', (code) => failed(new Error(`dev exited ${code}:\n${output}`)))
  })
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
  await context.route((address) => address.hostname !== '127.0.0.1', (route) => { outside.push(route.request().url()); return route.abort() })
  page = await context.newPage()
  await page.goto(`${url}/admin/`)
  await page.getByRole('button', { name: 'Login' }).click()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  if (child && child.exitCode === null) child.kill('SIGKILL')
  rmSync(site, { recursive: true, force: true })
})

describe('the editor under clinic-build dev', () => {
  test('creates an article: the file is written in content/, valid, and the rebuilt page shows it', async () => {
    await page.goto(`${url}/admin/#/collections/articles/new`)
    await page.getByLabel('Title').fill('Questions to ask before eyelid surgery')
    await page.getByLabel('Description').fill('What to ask the doctor at the consultation, and why each answer matters.')
    await page.getByLabel('Reviewed by').click()
    await page.getByRole('option', { name: 'dr-evelyn-quah' }).click()
    await page.getByLabel('Reviewed on').fill('2026-11-20')
    await page.getByLabel('Date', { exact: true }).fill('2026-11-21')
    await page.getByLabel('Author').click()
    await page.getByRole('option', { name: 'dr-nathaniel-goh' }).click()
    await page.getByRole('button', { name: 'Add tags' }).click()
    await page.getByLabel('Item').fill('eyelids')
    await page.locator('[contenteditable="true"]').first().click()
    await page.keyboard.type('Bring a list of your questions to the consultation.')
    await publish()
    // The save of a new page ends with the editor showing it at its own address.
    await expect.poll(() => page.url(), REBUILD).toMatch(/#\/collections\/articles\/entries\/questions-to-ask-before-eyelid-surgery$/)

    expect(existsSync(join(site, ARTICLE))).toBe(true)
    expect(parsed(ARTICLE).diagnostics).toEqual([])
    expect(parsed(ARTICLE).doc?.data).toMatchObject({ title: 'Questions to ask before eyelid surgery', author: 'dr-nathaniel-goh', reviewedOn: '2026-11-20', date: '2026-11-21', tags: ['eyelids'] })
    expect(read(ARTICLE)).toMatch(/\nBring a list of your questions to the consultation\.\n?$/)
    // The fields in the schema's order, each on one line.
    const keys = [...read(ARTICLE).split('\n---')[0]!.matchAll(/^(\w+):/gm)].map((m) => m[1])
    expect(keys).toEqual(Object.keys(frontMatterSchemas().article.shape).filter((k) => keys.includes(k)))
    expect(keys).toEqual(['title', 'description', 'reviewedBy', 'reviewedOn', 'date', 'author', 'tags'])
    await expect.poll(() => served('/blog/questions-to-ask-before-eyelid-surgery/'), REBUILD).toContain('Bring a list of your questions to the consultation.')
    expect(await served('/blog/')).toContain('Questions to ask before eyelid surgery')
  })

  test('edits a service in both languages side by side: both files change, and both pages', async () => {
    const before = { en: read('content/en/services/ear.md'), cn: read('content/cn/services/ear.md') }
    await openService(/Ear Surgery/)
    const summaries = page.getByLabel('Summary')
    await summaries.nth(0).fill('Reshaping prominent ears and repairing torn earlobes, for adults and children over six.')
    await summaries.nth(1).fill('矫正招风耳，修复撕裂的耳垂，适用于成人和六岁以上的儿童。')
    await publish()

    await expect.poll(() => read('content/cn/services/ear.md'), REBUILD).toContain('六岁以上')
    await expect.poll(() => read('content/en/services/ear.md'), REBUILD).toContain('over six')
    for (const file of ['content/en/services/ear.md', 'content/cn/services/ear.md']) expect(parsed(file).diagnostics, file).toEqual([])
    expect(changedLines(before.en, read('content/en/services/ear.md'))).toEqual([
      '-summary: Reshaping prominent ears and repairing torn or stretched earlobes, for adults and children.',
      '+summary: Reshaping prominent ears and repairing torn earlobes, for adults and children over six.',
    ])
    expect(changedLines(before.cn, read('content/cn/services/ear.md'))).toEqual(['-summary: 矫正招风耳，以及修复撕裂或被拉长的耳垂，适用于成人和儿童。', '+summary: 矫正招风耳，修复撕裂的耳垂，适用于成人和六岁以上的儿童。'])
    // What was not edited stays: the reviewing doctor, shared by both languages, and the text.
    expect(parsed('content/cn/services/ear.md').doc?.data.reviewedBy).toBe('dr-evelyn-quah')
    expect(parsed('content/cn/services/ear.md').doc?.markdown).toContain('## ')
    await expect.poll(() => served('/services/ear/'), REBUILD).toContain('for adults and children over six.')
    await expect.poll(() => served('/cn/services/ear/'), REBUILD).toContain('适用于成人和六岁以上的儿童。')
  })

  test('an edit of one field in one language changes that line alone; the translation is not written', async () => {
    const en = 'content/en/services/rhinoplasty.md'
    const cn = 'content/cn/services/rhinoplasty.md'
    const before = { en: read(en), cn: read(cn), cnModified: modified(cn) }
    const description = /^description: (.*)$/m.exec(before.en)![1]!
    await openService(/Rhinoplasty/)
    await page.getByLabel('Description').nth(0).fill(`${description} Recovery takes weeks.`)
    await publish()

    expect(changedLines(before.en, read(en))).toEqual([`-description: ${description}`, `+description: ${description} Recovery takes weeks.`])
    expect(read(cn)).toBe(before.cn)
    expect(modified(cn)).toBe(before.cnModified)
    expect(parsed(en).diagnostics).toEqual([])
    await expect.poll(() => served('/services/rhinoplasty/'), REBUILD).toContain('Recovery takes weeks.')
  })

  test('publishing with no change left writes nothing, though Decap writes the touched text in its own style', async () => {
    const files = ['content/en/services/septoplasty.md', 'content/cn/services/septoplasty.md']
    const before = files.map((f) => [read(f), modified(f)])
    await openService(/Septoplasty/)
    // A letter typed and taken back: Decap then writes the whole text anew, its lists with `*` where the file has `-`.
    await page.locator('[contenteditable="true"]').first().click()
    await page.keyboard.type('Z')
    await page.keyboard.press('Backspace')
    await publish()
    expect(files.map((f) => [read(f), modified(f)])).toEqual(before)
  })

  test('clearing a field shared by the languages removes its line from both, and nothing else', async () => {
    const files = ['content/en/services/liposuction.md', 'content/cn/services/liposuction.md']
    const before = files.map(read)
    await openService(/Liposuction/)
    await page.getByLabel('Order').nth(0).fill('')
    await publish()
    for (const [i, file] of files.entries()) {
      expect(changedLines(before[i]!, read(file)), file).toEqual(['-order: 3'])
      expect(parsed(file).diagnostics, file).toEqual([])
    }
  })

  test('the local backend answers the dev server\'s own pages only', async () => {
    const foreign = await fetch(`${url}/__clinic/cms/api/v1`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' }, body: JSON.stringify({ action: 'info' }) })
    expect(foreign.status).toBe(403)
    const own = await fetch(`${url}/__clinic/cms/api/v1`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: url }, body: JSON.stringify({ action: 'info' }) })
    expect(await own.json()).toMatchObject({ type: 'local_fs' })
  })

  test('the site with these edits builds and passes clinic-build check', async () => {
    const dist = join(site, 'dist')
    const built = await runCli(['--root', site, '--out', dist], site)
    expect(built.stderr).toBe('')
    expect(built.status).toBe(0)
    const checked = await runCli(['check', '--root', site, '--out', dist], site)
    expect(checked.stdout).toMatch(/0 errors/)
    expect(checked.status, checked.stdout + checked.stderr).toBe(0)
  }, 300_000)

  test('nothing was requested from another address', () => {
    expect(outside).toEqual([])
  })
})
