/**
 * An editor on their own computer: `clinic-build dev` (a real process, in a copy of the site)
 * serves /admin/ and the editor's local backend. In Chromium, the editor creates an article and
 * edits a service in both languages; the files written under content/ parse with the site's
 * schema, the rebuilt pages show the edits, and the site still passes `clinic-build check`.
 * Nothing is requested from anywhere but 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseDoc } from '../../src/content/parse.ts'
import { parseSite } from '../../src/content/site.ts'
import { launchBrowser } from '../support/browser.ts'
import { BIN, copySite, REBUILD, runCli } from '../support/helpers.ts'
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
const served = async (path: string) => (await get(`${url}${path}`)).body.toString('utf8')
/** A file as the build reads it: its diagnostics, none when it is valid. */
function parsed(file: string) {
  const { site: config } = parseSite({ path: 'content/site.yaml', text: read('content/site.yaml') })
  return parseDoc({ path: file, text: read(file) }, config!)
}

async function publish(): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('menuitem', { name: 'Publish now' }).click()
}

beforeAll(async () => {
  site = copySite()
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

    await expect.poll(() => existsSync(join(site, ARTICLE)), REBUILD).toBe(true)
    expect(parsed(ARTICLE).diagnostics).toEqual([])
    expect(parsed(ARTICLE).doc?.data).toMatchObject({ title: 'Questions to ask before eyelid surgery', author: 'dr-nathaniel-goh', reviewedOn: '2026-11-20', date: '2026-11-21', tags: ['eyelids'] })
    expect(read(ARTICLE)).toMatch(/\nBring a list of your questions to the consultation\.\n?$/)
    await expect.poll(() => served('/blog/questions-to-ask-before-eyelid-surgery/'), REBUILD).toContain('Bring a list of your questions to the consultation.')
    expect(await served('/blog/')).toContain('Questions to ask before eyelid surgery')
  })

  test('edits a service in both languages side by side: both files change, and both pages', async () => {
    await page.goto(`${url}/admin/#/collections/services`)
    await page.getByRole('link', { name: /Ear Surgery/ }).click()
    const summaries = page.getByLabel('Summary')
    await summaries.nth(0).fill('Reshaping prominent ears and repairing torn earlobes, for adults and children over six.')
    await summaries.nth(1).fill('矫正招风耳，修复撕裂的耳垂，适用于成人和六岁以上的儿童。')
    await publish()

    await expect.poll(() => read('content/cn/services/ear.md'), REBUILD).toContain('六岁以上')
    await expect.poll(() => read('content/en/services/ear.md'), REBUILD).toContain('over six')
    for (const file of ['content/en/services/ear.md', 'content/cn/services/ear.md']) expect(parsed(file).diagnostics, file).toEqual([])
    // What was not edited stays: the reviewing doctor, shared by both languages, and the text.
    expect(parsed('content/cn/services/ear.md').doc?.data.reviewedBy).toBe('dr-evelyn-quah')
    expect(parsed('content/cn/services/ear.md').doc?.markdown).toContain('## ')
    await expect.poll(() => served('/services/ear/'), REBUILD).toContain('for adults and children over six.')
    await expect.poll(() => served('/cn/services/ear/'), REBUILD).toContain('适用于成人和六岁以上的儿童。')
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
