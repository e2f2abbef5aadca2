/**
 * `clinic-build dev` as a real process in a temporary copy of the project (templates included, so
 * a style edit is a real edit), a real event-stream client, and Chromium for the overlay and the
 * stylesheet swap.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { build } from '../../../src/build/build.ts'
import { launchBrowser } from '../../support/browser.ts'
import { copySite, projectRoot, REBUILD } from '../../support/helpers.ts'
import { get, rawGet } from '../../support/http.ts'

const ARTICLE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'

let site: string
let child: ChildProcess
let url: string
let stdout = ''
let stderr = ''
const events: { event: string; data: unknown }[] = []
let stopEvents: () => void
let browser: Browser
let tab: Page

/** A copy of the whole project: dev watches templates/ of the package it runs from. */
function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-dev-'))
  for (const entry of ['bin', 'src', 'templates', 'content', 'locales', 'static', 'package.json', 'tsconfig.json']) {
    cpSync(join(projectRoot, entry), join(dir, entry), { recursive: true })
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

/** Reads the event stream the way a tab's EventSource does. */
async function listen(): Promise<() => void> {
  const controller = new AbortController()
  const res = await fetch(`${url}/__clinic/events`, { signal: controller.signal })
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  void (async () => {
    let buffer = ''
    try {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += read.value
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.+)$/m.exec(block)?.[1]
          const data = /^data: (.+)$/m.exec(block)?.[1]
          if (event) events.push({ event, data: data ? JSON.parse(data) : undefined })
        }
      }
    } catch { /* aborted at the end */ }
  })()
  return () => controller.abort()
}

const edit = (file: string, change: (text: string) => string) => writeFileSync(join(site, file), change(readFileSync(join(site, file), 'utf8')))
const page = async (path: string) => (await get(`${url}${path}`)).body.toString('utf8')
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]
/** Resolves with the first event of `name` after `from` (an index into `events`). */
const nextEvent = async (name: string, from: number) => {
  await expect.poll(() => events.slice(from).some((e) => e.event === name), REBUILD).toBe(true)
  return events.slice(from).find((e) => e.event === name)!
}
const status = async () => JSON.parse(await page('/__clinic/status')) as { building: boolean; ok: boolean; builds: number }

beforeAll(async () => {
  site = copyProject()
  child = spawn(process.execPath, [join(site, 'bin/clinic-build.js'), 'dev', '--port', '0'], { cwd: site, stdio: ['ignore', 'pipe', 'pipe'] })
  url = await new Promise<string>((started, failed) => {
    child.stdout!.on('data', (c) => {
      stdout += c
      const address = /Dev server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)?.[1]
      if (address) started(address)
    })
    child.stderr!.on('data', (c) => { stderr += c })
    child.once('exit', (code) => failed(new Error(`dev exited ${code}:\n${stdout}\n${stderr}`)))
  })
  stopEvents = await listen()
  browser = await launchBrowser()
  tab = await browser.newPage()
  await tab.goto(`${url}/contact/`)
}, 300_000)

afterAll(async () => {
  stopEvents?.()
  await browser?.close()
  if (child && child.exitCode === null) child.kill('SIGKILL')
  rmSync(site, { recursive: true, force: true })
})

describe('clinic-build dev', () => {
  test('serves the site on 127.0.0.1 with the dev client, never cached', async () => {
    const r = await get(`${url}/contact/`)
    expect(r.status).toBe(200)
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.body.toString()).toContain('<script type="module" src="/__clinic/dev-client.js"></script>')
    expect((await get(`${url}/contact`)).headers.location).toBe('/contact/')
    expect((await get(`${url}/cn/nope/`)).status).toBe(404)
    expect((await get(`${url}/__clinic/dev-client.js`)).headers['content-type']).toBe('text/javascript; charset=utf-8')
  })

  test('editing an article changes the served page and sends a reload, which the open tab follows', async () => {
    await tab.evaluate(() => { (window as { beforeEdit?: boolean }).beforeEdit = true })
    const from = events.length
    edit(ARTICLE, (t) => t.replace(/^title: .*$/m, 'title: Preparing for Nose Surgery, Edited'))
    await expect.poll(async () => titleOf(await page('/blog/how-to-prepare-for-a-rhinoplasty/')), REBUILD).toMatch(/^Preparing for Nose Surgery, Edited \|/)
    await nextEvent('reload', from)
    expect(stdout).toMatch(/content\/en\/blog\/how-to-prepare-for-a-rhinoplasty\.md: built in \d+ ms/)
    // The tab reloaded by itself (a fresh window has no marker); later tests start from that page.
    const reloaded = () => tab.evaluate(() => !(window as { beforeEdit?: boolean }).beforeEdit && document.readyState === 'complete').catch(() => false)
    await expect.poll(reloaded, REBUILD).toBe(true)
  })

  test('a style edit sends the new stylesheet, which the open tab swaps in without reloading', async () => {
    await tab.evaluate(() => { (window as { notReloaded?: boolean }).notReloaded = true })
    const from = events.length
    edit('templates/styles/site.css', (t) => `${t}\nbody { outline: 1px solid rgb(1, 2, 3) }\n`)
    const style = await nextEvent('style', from)
    const [href] = (style.data as { stylesheets: string[] }).stylesheets
    expect(href).toMatch(/^\/assets\/site\.[A-Za-z0-9_-]+\.css$/)
    expect(await page(href!)).toContain('rgb(1,2,3)')
    expect(await page('/contact/')).toContain(`href="${href}"`)
    await expect.poll(() => tab.evaluate(() => getComputedStyle(document.body).outlineColor), REBUILD).toBe('rgb(1, 2, 3)')
    expect(await tab.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true)
    expect(events.slice(from).some((e) => e.event === 'reload')).toBe(false)
  })

  test('broken front matter: the error in the terminal and over that page alone, which stays as last built; other pages go on', async () => {
    const from = events.length
    const before = await page('/contact/')
    edit('content/en/contact.md', (t) => t.replace(/^description: (.*)$/m, 'description: Visit: the clinic'))
    const problems = await nextEvent('problems', from)
    expect(problems.data).toEqual({
      problems: [expect.objectContaining({ code: 'InvalidYaml', file: 'content/en/contact.md', line: 4, column: 14 })],
      pages: { '/contact/': [expect.objectContaining({ code: 'InvalidYaml', file: 'content/en/contact.md' })] },
    })
    expect(stderr).toContain('content/en/contact.md:4:14  InvalidYaml  YAML could not be parsed')
    expect(stderr).toContain('content/en/contact.md is held back: /contact/ shows its last good build until a fix is saved')
    expect(await page('/contact/')).toBe(before)
    expect(await status()).toMatchObject({ ok: false, held: ['content/en/contact.md'] })
    const overlay = tab.locator('#clinic-dev-overlay [role="alertdialog"]')
    await overlay.waitFor({ timeout: 10_000 })
    expect(await overlay.textContent()).toContain('content/en/contact.md:4:14 InvalidYaml')
    expect(await overlay.textContent()).toContain('1 error holds this page back')
    // Styled under the site's own policy, which refuses inline styles: it covers the page.
    expect(await overlay.evaluate((e) => getComputedStyle(e).position)).toBe('fixed')
    // A tab opened on that page while it is held is told at once; a tab on another page is not.
    const late = await browser.newPage()
    await late.goto(`${url}/contact/`)
    await late.locator('#clinic-dev-overlay [role="alertdialog"]').waitFor({ timeout: 10_000 })
    await late.goto(`${url}/blog/how-to-prepare-for-a-rhinoplasty/`)
    await new Promise((wait) => setTimeout(wait, 500))
    expect(await late.locator('#clinic-dev-overlay').count()).toBe(0)

    // That page's edit, saved while the contact page is held, is built and served: its tab reloads, with no overlay.
    const reloadAt = events.length
    edit(ARTICLE, (t) => t.replace(/^title: .*$/m, 'title: Preparing for Nose Surgery, While Contact Is Held'))
    await nextEvent('reload', reloadAt)
    await expect.poll(() => late.title(), REBUILD).toMatch(/^Preparing for Nose Surgery, While Contact Is Held/)
    await new Promise((wait) => setTimeout(wait, 500))
    expect(await late.locator('#clinic-dev-overlay').count()).toBe(0)
    await late.close()
    // The held page's tab reloaded with the others and still shows its errors.
    await tab.locator('#clinic-dev-overlay [role="alertdialog"]').waitFor({ timeout: 10_000 })
    expect(await page('/contact/')).toContain(/<meta name="description" content="([^"]*)"/.exec(before)![0])
  })

  test('fixing the file recovers by itself: new content, overlay gone', async () => {
    const from = events.length
    edit('content/en/contact.md', (t) => t.replace('description: Visit: the clinic', 'description: "Visit: the clinic, by appointment."'))
    await nextEvent('reload', from)
    await expect.poll(async () => page('/contact/'), REBUILD).toContain('Visit: the clinic, by appointment.')
    expect((await status()).ok).toBe(true)
    await expect.poll(() => tab.locator('meta[name="description"]').getAttribute('content'), REBUILD).toBe('Visit: the clinic, by appointment.')
    expect(await tab.locator('#clinic-dev-overlay').count()).toBe(0)
  })

  test('a burst of 50 saves, one every 15 ms, ends in one correct final state', async () => {
    const { builds } = await status()
    const started = performance.now()
    for (let i = 1; i <= 50; i++) {
      // One save every 15 ms or so, as an editor's autosave or a formatter might.
      const due = started + i * 15 - performance.now()
      if (due > 0) await new Promise((r) => setTimeout(r, due))
      edit(ARTICLE, (t) => t.replace(/^title: .*$/m, `title: Burst ${i}`))
    }
    await expect.poll(async () => titleOf(await page('/blog/how-to-prepare-for-a-rhinoplasty/')), REBUILD).toMatch(/^Burst 50 \|/)
    await expect.poll(async () => (await status()).building, REBUILD).toBe(false)
    expect(titleOf(await page('/blog/how-to-prepare-for-a-rhinoplasty/'))).toMatch(/^Burst 50 \|/)
    // Queued, not one rebuild per save: a rebuild outlasts several 15 ms gaps, so each takes in
    // several saves. How many rebuilds run depends on how fast each is (and a stalled machine
    // spaces the saves further apart), so the bound is loose and no time is asserted.
    expect((await status()).builds - builds).toBeLessThan(25)
  })

  test('drafts show with a badge and a missing translation shows the other language with a notice', async () => {
    const from = events.length
    writeFileSync(join(site, 'content/en/blog/draft-note.md'), readFileSync(join(site, ARTICLE), 'utf8').replace(/^title: .*$/m, 'title: A Draft Note\ndraft: true'))
    rmSync(join(site, 'content/cn/thank-you.md'))
    // The two saves may arrive in one rebuild or in two: wait for the last page either changes.
    await expect.poll(async () => page('/cn/thank-you/'), REBUILD).toContain('data-clinic-preview')
    await expect.poll(async () => (await get(`${url}/blog/draft-note/`)).status, REBUILD).toBe(200)
    await nextEvent('reload', from)
    const draft = await page('/blog/draft-note/')
    expect(draft).toContain('data-clinic-preview')
    expect(draft).toContain('Draft: this page is not published.')
    const fallback = await page('/cn/thank-you/')
    expect(fallback).toContain('尚未翻译：在添加译文之前，此页面显示English内容。')
    const englishTitle = /^title: (.*)$/m.exec(readFileSync(join(site, 'content/en/thank-you.md'), 'utf8'))![1]!
    expect(fallback).toContain(`>${englishTitle}</h1>`)
    expect(fallback).toMatch(/<html lang="zh"/)
    expect(stderr).toContain('content/en/thank-you.md  warning MissingTranslation')
    expect(await page('/thank-you/')).not.toContain('data-clinic-preview')
    // A production build of the same files refuses the missing translation and leaves the draft out.
    const production = await build({ root: site, write: false })
    expect(production.ok).toBe(false)
    expect(production.diagnostics).toContainEqual(expect.objectContaining({ code: 'MissingTranslation', severity: 'error', file: 'content/en/thank-you.md' }))
  })

  test("a page template's code: a fresh build worker renders that template's pages only", async () => {
    const doctors = ['/dr-evelyn-quah/', '/dr-nathaniel-goh/', '/cn/dr-evelyn-quah/', '/cn/dr-nathaniel-goh/']
    for (const path of doctors) expect((await get(`${url}${path}`)).status).toBe(200)
    const from = events.length
    const builds = (await status()).builds
    edit('templates/pages/Doctor.tsx', (t) => t.replace('<div className="wrap doctor">', '<div className="wrap doctor" data-edited="yes">'))
    await expect.poll(async () => (await page('/dr-evelyn-quah/')).includes('data-edited="yes"'), REBUILD).toBe(true)
    await nextEvent('reload', from)
    await expect.poll(async () => (await status()).builds, REBUILD).toBeGreaterThan(builds)
    for (const path of doctors) expect(await page(path)).toContain('data-edited="yes"')
    expect(await page('/contact/')).not.toContain('data-edited')
    // The new worker took over the old one's cache: the four doctor pages, not the whole site; and
    // the content editor's page, its script and its preview chunk, which runs the templates (the
    // old script and chunk are unpublished; the chunks the templates do not reach stay).
    expect(stdout).toMatch(/templates\/pages\/Doctor\.tsx: built in \d+ ms \(4 pages rendered, 7 files updated, 2 removed\)/)
  })

  test('a static file added, changed and removed: just that copy, and a reload each time', async () => {
    const notes = 'static/press/notes.txt'
    const served = async () => { const r = await get(`${url}/press/notes.txt`); return `${r.status} ${r.body.toString('utf8')}` }
    for (const [step, expected] of [['first', '200 first'], ['second', '200 second'], ['removed', '404']] as const) {
      const from = events.length
      const builds = (await status()).builds
      if (step === 'removed') rmSync(join(site, notes))
      else { mkdirSync(join(site, 'static/press'), { recursive: true }); writeFileSync(join(site, notes), step) }
      await expect.poll(async () => (await served()).slice(0, expected.length), REBUILD).toBe(expected)
      await nextEvent('reload', from)
      await expect.poll(async () => (await status()).builds, REBUILD).toBeGreaterThan(builds)
    }
    // Only the file itself was written, then only it was dropped.
    expect(stdout).toMatch(/static\/press\/notes\.txt: built in \d+ ms \(0 pages rendered, 1 file updated\)/)
    expect(stdout).toMatch(/static\/press\/notes\.txt: built in \d+ ms \(0 pages rendered, 0 files updated, 1 removed\)/)
  })

  test('answers the local enquiry endpoint and 500 concurrent connections', async () => {
    const enquiry = await fetch(`${url}/api/enquiry`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: '{}' })
    expect(enquiry.status).toBe(422)
    expect(await enquiry.json()).toMatchObject({ ok: false })
    const port = Number(new URL(url).port)
    const statuses = await Promise.all(Array.from({ length: 500 }, (_, i) => rawGet(port, i % 2 ? '/services/' : `/blog/?n=${i}`).then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(500)
    expect((await status()).ok).toBe(true)
  })

  test('a second dev server asked for a taken port says so and takes the next free one', async () => {
    const other = copySite()
    const port = Number(new URL(url).port)
    const second = spawn(process.execPath, [join(site, 'bin/clinic-build.js'), 'dev', '--root', other, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    try {
      const served = await new Promise<string>((started, failed) => {
        const seen = (c: Buffer) => {
          output += c
          const address = /Dev server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1]
          if (address) started(address)
        }
        second.stdout!.on('data', seen)
        second.stderr!.on('data', seen)
        second.once('exit', (code) => failed(new Error(`dev exited ${code}:\n${output}`)))
      })
      // The notice goes to stderr and the address to stdout: two pipes, read in either order.
      await expect.poll(() => output).toContain(`Port ${port} is taken; trying ${port + 1}.`)
      // The next free one: another process may hold port + 1 too, and then it says so as well.
      const bound = Number(new URL(served).port)
      expect(bound).toBeGreaterThan(port)
      for (let taken = port + 1; taken < bound; taken++) await expect.poll(() => output).toContain(`Port ${taken} is taken; trying ${taken + 1}.`)
      expect((await get(`${served}/contact/`)).status).toBe(200)
    } finally {
      second.kill('SIGINT')
      rmSync(other, { recursive: true, force: true })
    }
  }, 300_000)

  test('Ctrl-C stops it cleanly, open event streams included', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(stdout).toContain('Stopped.')
  })
})
