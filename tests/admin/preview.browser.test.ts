/**
 * The editor in Chromium, on the built site as `clinic-build serve` serves it (its `_headers`
 * policy in force), with Decap's in-memory test backend holding the service "ear" in both
 * languages: the preview pane shows the page the site's templates build, in either language, and
 * the findings `clinic-build check` would print for the text being typed (for a pasted body the
 * build would refuse, that refusal, the tab still answering); the editorial workflow
 * keeps a draft apart and publishes the site's own files. Nothing is requested from anywhere but
 * 127.0.0.1.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { lintCompliance } from '../../src/check/compliance.ts'
import { parseSite } from '../../src/content/site.ts'
import { readHtml, select, textOf } from '../../src/check/html.ts'
import { startSite, type Site } from '../support/runtime.ts'
import { projectRoot } from '../support/helpers.ts'
import { article, CMARK_SHAPES } from '../support/pathological.ts'
import { refusalOf, screenBody, timeBudget, tooSlow } from '../../src/markdown/screen.ts'

let site: Site
const outside: string[] = []

/**
 * Decap's test backend reads window.repoFiles: a tree of folders, and each collection folder listed
 * whole. `earBody`: the English page's Markdown body in place of its own, as if saved so.
 */
function repoFiles(earBody?: string): Record<string, unknown> {
  const file = (path: string) => ({ content: readFileSync(join(projectRoot, path), 'utf8') })
  const withBody = (text: string) => earBody === undefined ? text : `${/^---\n[\s\S]*?\n---\n/.exec(text)![0]}\n${earBody}\n`
  const ear = (locale: string) => ({ 'ear.md': locale === 'en' ? { content: withBody(file(`content/en/services/ear.md`).content) } : file(`content/${locale}/services/ear.md`) })
  const top = (locale: string) => ({ 'index.md': file(`content/${locale}/index.md`), services: ear(locale) })
  return { content: { en: top('en'), cn: top('cn') }, 'content/en/services': ear('en'), 'content/cn/services': ear('cn') }
}

/** A context whose editor uses the test backend (or `backend`); any request off 127.0.0.1 is noted and refused. */
async function editorContext(options: { checkConfig?: boolean; backend?: Record<string, string>; earBody?: string } = {}): Promise<BrowserContext> {
  const context = await site.browser.newContext({ viewport: { width: 1400, height: 1000 }, ...(options.checkConfig ? { bypassCSP: true } : {}) })
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => { outside.push(route.request().url()); return route.abort() })
  await context.route('**/admin/config.json', async (route) => {
    const response = await route.fetch()
    const config = await response.json() as { decap: { backend: unknown } }
    await route.fulfill({ response, json: { ...config, decap: { ...config.decap, backend: options.backend ?? { name: 'test-repo' } } } })
  })
  await context.addInitScript(({ files, checkConfig }) => {
    Object.assign(window, { repoFiles: files, ...(checkConfig ? { CLINIC_CHECK_CONFIG: true } : {}) })
  }, { files: repoFiles(options.earBody), checkConfig: options.checkConfig ?? false })
  return context
}

async function openEar(page: Page): Promise<void> {
  await page.goto(site.url('/admin/'))
  await page.getByRole('button', { name: 'Login' }).click()
  await page.getByRole('link', { name: 'Services', exact: true }).click()
  await page.getByRole('link', { name: /Ear Surgery/ }).click()
  await page.getByRole('button', { name: 'Toggle preview' }).click()
}

const preview = (page: Page) => page.frameLocator('iframe').first()
/** The text of a built page's <main>; compared without white space, which the browser adds between blocks. */
const builtMain = (path: string) => textOf(select(readHtml(path, readFileSync(join(site.dist, path), 'utf8')).doc, (el) => el.name === 'main')[0]!)
const folded = (text: string) => text.replace(/\s+/g, '')

beforeAll(async () => { site = await startSite() }, 180_000)
afterAll(async () => { await site?.close() })

describe('the preview pane, with the test backend', () => {
  let context: BrowserContext
  let page: Page
  beforeAll(async () => {
    context = await editorContext()
    page = await context.newPage()
    await openEar(page)
  }, 120_000)
  afterAll(async () => { await context?.close() })

  test('shows the page as the site\'s templates and stylesheet build it, in each language', async () => {
    const stylesheet = (JSON.parse(readFileSync(join(site.dist, 'admin/preview.json'), 'utf8')) as { assets: { stylesheet: string } }).assets.stylesheet
    await expect.poll(() => preview(page).locator(`link[rel="stylesheet"][href="${stylesheet}"]`).count()).toBe(1)
    await expect.poll(async () => folded(await preview(page).locator('main').innerText())).toBe(folded(builtMain('services/ear/index.html')))
    await expect.poll(() => preview(page).locator('main h1').evaluate((h) => getComputedStyle(h).fontFamily)).toMatch(/Source Serif/)
    await preview(page).getByRole('button', { name: '中文' }).click()
    await expect.poll(async () => folded(await preview(page).locator('main').innerText())).toBe(folded(builtMain('cn/services/ear/index.html')))
    expect(await preview(page).locator('[data-preview-page]').getAttribute('lang')).toBe('zh')
    await expect.poll(() => preview(page).locator('[data-findings="none"]').innerText()).toMatch(/No problems found in content\/cn\/services\/ear\.md/)
  })

  test('shows what check would say of the words being typed, in check\'s words, before saving', async () => {
    await preview(page).getByRole('button', { name: 'English' }).click()
    await page.getByLabel('Summary').first().fill('The best ear surgery in Singapore, painless and guaranteed.')
    const { site: config } = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') })
    const expected = lintCompliance({ sources: [{ path: 'content/en/services/ear.md', text: '---\nsummary: The best ear surgery in Singapore, painless and guaranteed.\n---\n' }], staticFiles: [], site: config!, pages: [] })
    expect(expected.map((d) => d.code).sort()).toEqual(['GUARANTEE', 'GUARANTEE', 'SUPERLATIVE'])
    for (const finding of expected) {
      await expect.poll(() => preview(page).locator(`li[data-code="${finding.code}"]`).allInnerTexts()).toContainEqual(expect.stringContaining(finding.message))
      expect((await preview(page).locator(`li[data-code="${finding.code}"]`).allInnerTexts()).join('\n')).toContain(`hint: ${finding.hint}`)
    }
    // The page itself still shows, with the words as typed.
    expect(await preview(page).locator('main').innerText()).toContain('The best ear surgery in Singapore')
  })

  test('nothing was requested from another address', () => {
    expect(outside).toEqual([])
  })
})

describe('the preview of a body the build would refuse, with the test backend', () => {
  // The widget in its Markdown mode, a text box that keeps the text as typed: its rich-text mode
  // turns the text into its own document with Decap's parser, a different one from the site's.
  const openWithBody = async (earBody: string, prepare?: (context: BrowserContext) => Promise<void>) => {
    const context = await editorContext({ earBody })
    await prepare?.(context)
    await context.addInitScript(() => localStorage.setItem('cms.md-mode', 'raw'))
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('crash', () => errors.push('the tab crashed'))
    await openEar(page)
    return { context, page, errors }
  }
  /**
   * Pastes `body` over the whole text, as an editor does with Ctrl+A and Ctrl+V. Slate takes the
   * browser's selection into its own only on a throttled timer (100 ms), and pastes at its own:
   * a Ctrl+V pressed before that timer ran pasted nowhere, in about two runs of three. So the
   * paste waits until Slate's selection is the whole text, read from the editor object that
   * React holds for the text box. Slate also ignores a selection made while it is setting the
   * page's selection itself after a render (seen on a machine running four suites at once): then
   * the selection is made again, as a person would.
   */
  const pasteOver = async (context: BrowserContext, page: Page, body: string) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.server.url })
    await page.evaluate((text) => navigator.clipboard.writeText(text), body)
    const text = page.locator('[data-slate-editor]').first()
    await page.bringToFront()
    for (let attempt = 1; ; attempt++) {
      await text.click()
      await page.keyboard.press('End')
      await page.keyboard.press('ControlOrMeta+A')
      const taken = await slateHoldsAll(page).then(() => true, () => false)
      if (taken) break
      if (attempt === 4) throw new Error('Slate never took the selection of the whole text (four tries)')
    }
    await page.keyboard.press('ControlOrMeta+V')
    return text
  }
  /** Resolves once Slate's own selection is the whole text; rejects after 5 s. */
  const slateHoldsAll = (page: Page) => page.waitForFunction(() => {
    type Point = { path: number[]; offset: number }
    type Editor = { selection: { anchor: Point; focus: Point } | null; children: { children: { text: string }[] }[] }
    const box = document.querySelector('[data-slate-editor]')!
    let fiber = (box as unknown as Record<string, unknown>)[Object.keys(box).find((key) => key.startsWith('__reactFiber$'))!] as { memoizedProps?: { editor?: Editor }; return?: unknown } | undefined
    while (fiber && !fiber.memoizedProps?.editor) fiber = fiber.return as typeof fiber
    const editor = fiber?.memoizedProps?.editor
    if (!editor?.selection) return false
    const { anchor, focus } = editor.selection
    const last = editor.children.length - 1
    const ends = [anchor, focus].sort((a, b) => a.path[0]! - b.path[0]! || a.offset - b.offset)
    return ends[0]!.path[0] === 0 && ends[0]!.offset === 0 && ends[1]!.path[0] === last && ends[1]!.offset === editor.children[last]!.children[0]!.text.length
  }, undefined, { timeout: 5_000 })
  /** Seconds the site's reader worker (the editor's `data-body-reader`) takes over `body` in this browser, from the moment it is ready. */
  const readerSeconds = async (body: string) => {
    // A context of its own: a page opened and closed beside the editor's could leave the editor's
    // without focus, and Slate then ignores the selection.
    const context = await site.browser.newContext()
    const page = await context.newPage()
    await page.goto(site.url('/admin/'))
    const seconds = await page.evaluate((markdown) => new Promise<number>((answered, failed) => {
      const worker = new Worker(document.querySelector<HTMLElement>('script[data-body-reader]')!.dataset.bodyReader!, { type: 'module' })
      let asked = 0
      worker.addEventListener('error', () => failed(new Error('the reader worker did not start')))
      worker.addEventListener('message', (event) => {
        if (event.data === 'ready') {
          asked = performance.now()
          worker.postMessage({ markdown, bodyLine: 1 })
        } else {
          answered((performance.now() - asked) / 1000)
          worker.terminate()
        }
      })
    }), body)
    await context.close()
    return seconds
  }
  /** Bounded waits: a tab frozen by the parser fails them, where a wait with no bound would hang the file. */
  const WAIT = { timeout: 30_000 }
  const answers = (page: Page) => page.waitForFunction(() => 1 + 1 === 2, undefined, WAIT)

  test('nested emphasis pasted into the text: the pane shows the build\'s refusal, and the tab goes on answering', async () => {
    const body = 'Intro.\n\n' + CMARK_SHAPES['nested strong emph']!(56_000)
    expect(body).toContain('*a **a '.repeat(4000) + 'b' + ' a** a*'.repeat(4000))
    const screened = screenBody(body).refusal
    const expected = refusalOf(screened!, 'content/en/services/ear.md')
    expect(expected.code).toBe('MarkdownTooComplex')
    const { context, page, errors } = await openWithBody('A body to be replaced.')
    await preview(page).locator('main', { hasText: 'A body to be replaced.' }).waitFor(WAIT)
    const text = await pasteOver(context, page, body)
    const shown = preview(page).locator(`li[data-code="${expected.code}"]`)
    await shown.waitFor(WAIT)
    expect(await shown.innerText()).toContain(expected.message)
    expect(await shown.innerText()).toContain(`hint: ${expected.hint}`)
    // The page is shown without the text, which was not read.
    expect(await preview(page).locator('main').innerText()).toContain('Ear Surgery (Otoplasty)')
    expect(await preview(page).locator('main').innerText()).not.toMatch(/Intro\.|A body to be replaced/)
    await answers(page)
    await page.getByLabel('Summary').first().fill('Reshaping ears, previewed while the text is refused.')
    await preview(page).locator('main', { hasText: 'previewed while the text is refused' }).waitFor(WAIT)
    expect(await shown.count()).toBe(1)
    // The editor's own text box holds what was pasted, for the editor to mend.
    expect((await text.innerText()).length).toBeGreaterThan(50_000)
    expect(errors).toEqual([])
    await context.close()
  })

  test('a body the parser is slow over is read by a worker, which is stopped at the time limit, the tab answering throughout', async () => {
    // 4,000 separate quotes: the pre-scan lets them through as risky, and the parser's time grows
    // with the square of their number. Decap's text box slows on many thousand lines, so the
    // site's limit is lowered rather than the body made longer: to a tenth of the time the site's
    // own reader takes over this body in this browser, measured first, so the limit is passed on
    // a machine of any speed.
    const body = 'Intro.\n\n' + '> a\n\n'.repeat(4000)
    expect(screenBody(body)).toEqual({ risky: true })
    let parseSeconds = 0
    let timeLimit = 0
    const { context, page, errors } = await openWithBody('A body to be replaced.', async (context) => {
      parseSeconds = await readerSeconds(body)
      timeLimit = Math.max(0.001, Math.floor(parseSeconds * 1000 / 10) / 1000)
      await context.route('**/admin/preview.json', async (route) => {
        const response = await route.fetch()
        const input = await response.json() as { site: { bodyTimeLimit: number } }
        await route.fulfill({ response, json: { ...input, site: { ...input.site, bodyTimeLimit: timeLimit } } })
      })
    })
    const workers: { url: string; closed: boolean }[] = []
    page.on('worker', (worker) => {
      const seen = { url: worker.url(), closed: false }
      workers.push(seen)
      worker.on('close', () => { seen.closed = true })
    })
    await preview(page).locator('main', { hasText: 'A body to be replaced.' }).waitFor(WAIT)
    await pasteOver(context, page, body)
    // Until the refusal shows, the editor's own thread draws every frame (a thread that read the
    // body itself would hold one frame for the whole parse), while the pane says that the text is
    // being read. Watched from inside the page, frame by frame, so that no state is missed
    // between two questions from the test, however busy the machine.
    await page.evaluate((code) => {
      const watch = { gaps: [] as number[], sawReading: false }
      Object.assign(window, { watch })
      const pane = () => document.querySelector('iframe')?.contentDocument
      let last = performance.now()
      const frame = (now: number) => {
        watch.gaps.push(now - last)
        last = now
        watch.sawReading ||= pane()?.querySelector('[data-reading-body]') != null
        if (!pane()?.querySelector(`li[data-code="${code}"]`)) requestAnimationFrame(frame)
      }
      requestAnimationFrame(frame)
    }, 'MarkdownTooSlow')
    const expected = tooSlow(timeBudget(body, timeLimit), 'content/en/services/ear.md', 1)
    const shown = preview(page).locator(`li[data-code="${expected.code}"]`)
    await shown.waitFor(WAIT)
    expect(await shown.innerText()).toContain(expected.message)
    expect(await shown.innerText()).toContain(`hint: ${expected.hint}`)
    const watched = await page.evaluate(() => (window as unknown as { watch: { gaps: number[]; sawReading: boolean } }).watch)
    expect(watched.sawReading).toBe(true)
    expect(watched.gaps.length).toBeGreaterThan(2)
    expect(Math.max(...watched.gaps)).toBeLessThan(Math.max(500, parseSeconds * 1000 / 2))
    // Ended at the limit; Playwright hears of it a moment later, longer on a busy machine.
    await expect.poll(() => workers, WAIT).toEqual([{ url: expect.stringMatching(/\/admin\/body-reader\.\w+\.js$/), closed: true }])
    expect(await preview(page).locator('[data-reading-body]').count()).toBe(0)
    expect(await preview(page).locator('main').innerText()).toContain('Ear Surgery (Otoplasty)')
    expect(await preview(page).locator('main blockquote').count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  test('a long ordinary article, which the build parses under its time limit, is previewed whole', async () => {
    const body = article(300_000)
    expect(screenBody(body)).toEqual({ risky: true })
    const sections = body.split('## A heading').length - 1
    const { context, page, errors } = await openWithBody(body)
    const fallbacks: string[] = []
    page.on('console', (message) => { if (message.text().includes("preview's worker")) fallbacks.push(message.text()) })
    const headings = preview(page).locator('main h2', { hasText: /^A heading$/ })
    await headings.nth(sections - 1).waitFor(WAIT)
    expect(await headings.count()).toBe(sections)
    expect(await preview(page).locator('main strong', { hasText: /^strong$/ }).count()).toBe(sections * 12)
    expect(await preview(page).locator('li[data-code^="Markdown"]').count()).toBe(0)
    await answers(page)
    expect(fallbacks).toEqual([]) // read by the worker, not on the editor's own thread
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('the editorial workflow, with the test backend', () => {
  test('a save is a draft on the Workflow screen; publishing writes the site\'s own files in both languages', async () => {
    const context = await editorContext()
    const page = await context.newPage()
    page.on('dialog', (dialog) => void dialog.accept()) // "Are you sure you want to publish this entry?"
    type Repo = { repoFiles: { content: Record<string, { services?: Record<string, { content: string }> }> }; repoFilesUnpublished: Record<string, { diffs: { path: string }[] }> }
    const drafts = () => page.evaluate(() => Object.keys((window as unknown as Repo).repoFilesUnpublished))
    const draftPaths = () => page.evaluate(() => (window as unknown as Repo).repoFilesUnpublished['services/ear']!.diffs.map((d) => d.path))
    const saved = (folder: string) => page.evaluate((f) => (window as unknown as Repo).repoFiles.content[f]?.services?.['ear.md']?.content ?? null, folder)
    await page.goto(site.url('/admin/'))
    await page.getByRole('button', { name: 'Login' }).click()
    await page.goto(site.url('/admin/#/collections/services/entries/ear'))
    await page.getByLabel('Summary').nth(0).fill('Reshaping prominent ears, for adults and children over six.')
    await page.getByLabel('Summary').nth(1).fill('矫正招风耳，适用于成人和六岁以上的儿童。')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(drafts).toEqual(['services/ear'])
    // The draft holds the site's paths, and nothing is published yet.
    expect(await draftPaths()).toEqual(['content/en/services/ear.md', 'content/cn/services/ear.md'])
    expect(await saved('en')).not.toContain('over six')
    await page.goto(site.url('/admin/#/workflow'))
    await expect.poll(() => page.locator('body').innerText()).toMatch(/Drafts\s+1 entry/i)

    await page.goto(site.url('/admin/#/collections/services/entries/ear'))
    await page.getByRole('button', { name: 'Status: Draft' }).click()
    await page.getByRole('menuitem', { name: 'Ready' }).click()
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Publish now' }).click()
    await expect.poll(drafts).toEqual([])
    expect(await saved('en')).toContain('summary: Reshaping prominent ears, for adults and children over six.')
    expect(await saved('cn')).toContain('summary: 矫正招风耳，适用于成人和六岁以上的儿童。')
    expect(await page.evaluate(() => Object.keys((window as unknown as Repo).repoFiles.content))).toEqual(['en', 'cn']) // nothing in Decap's own layout
    await context.close()
  })
})

describe('a page of which each language has one', () => {
  test('the home page: edited beside its translation, previewed with its template, saved in place', async () => {
    const context = await editorContext()
    const page = await context.newPage()
    page.on('dialog', (dialog) => void dialog.accept())
    await page.goto(site.url('/admin/'))
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByRole('link', { name: 'Home page' }).first().click()
    await page.getByRole('link', { name: /Plastic surgery in Singapore/ }).click()
    await page.getByLabel('Intro').nth(0).fill('A clinic for plastic surgery in Singapore.')
    await page.getByLabel('Intro').nth(1).fill('新加坡的整形外科诊所。')
    await page.getByRole('button', { name: 'Toggle preview' }).click()
    await expect.poll(() => preview(page).locator('main').innerText()).toContain('A clinic for plastic surgery in Singapore.')
    expect(await preview(page).locator('[data-findings="none"]').innerText()).toContain('content/en/index.md')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('button', { name: 'Status: Draft' }).click()
    await page.getByRole('menuitem', { name: 'Ready' }).click()
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Publish now' }).click()
    type Files = { repoFiles: { content: Record<string, Record<string, { content?: string }>> } }
    const home = (locale: string) => page.evaluate((l) => (window as unknown as Files).repoFiles.content[l]!['index.md']!.content ?? '', locale)
    await expect.poll(() => home('cn')).toContain('intro: 新加坡的整形外科诊所。')
    expect(await home('en')).toContain('intro: A clinic for plastic surgery in Singapore.')
    expect(await home('en')).toContain('imageAlt: ') // the fields not edited stay
    await context.close()
  })
})

describe('the Git hosts', () => {
  test('Git Gateway and GitHub show their sign-in, under the editor\'s policy, asking nothing of another address', async () => {
    const screens = [
      [{ name: 'git-gateway', branch: 'main' }, ['Email', 'Password']],
      [{ name: 'github', repo: 'amberlin/website', branch: 'main' }, []],
    ] as const
    for (const [backend, fields] of screens) {
      const context = await editorContext({ backend })
      const page = await context.newPage()
      await page.goto(site.url('/admin/'))
      await page.getByRole('button', { name: backend.name === 'github' ? 'Login with GitHub' : 'Login' }).waitFor()
      expect(await page.locator('input[placeholder]').evaluateAll((inputs) => inputs.map((i) => i.getAttribute('placeholder')))).toEqual(fields)
      await context.close()
    }
    expect(outside).toEqual([])
  })
})

describe('the editor\'s policy', () => {
  test('the editor starts and opens a page with no violation of its policy, not even an eval a library tries and catches', async () => {
    // A violation whose error the page catches is never printed to the console: the event is what the browser reports.
    const violations: string[] = []
    const backends: Record<string, string>[] = [{ name: 'test-repo' }, { name: 'github', repo: 'amberlin/website', branch: 'main' }]
    for (const backend of backends) {
      const context = await editorContext({ backend })
      await context.exposeFunction('clinicViolation', (text: string) => { violations.push(text) })
      await context.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => {
        void (window as unknown as { clinicViolation: (t: string) => void }).clinicViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`)
      }))
      const page = await context.newPage()
      if (backend.name === 'test-repo') await openEar(page)
      else {
        await page.goto(site.url('/admin/'))
        await page.getByRole('button', { name: 'Login with GitHub' }).waitFor()
      }
      await page.waitForLoadState('networkidle')
      await context.close()
    }
    expect(violations).toEqual([])
  })
})

describe('the editor\'s configuration', () => {
  test('passes Decap\'s own check of it (AJV, which the editor\'s policy keeps from running on the site)', async () => {
    const context = await editorContext({ checkConfig: true })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(site.url('/admin/'))
    await page.getByRole('button', { name: 'Login' }).waitFor()
    expect(await page.evaluate(() => (window as { CLINIC_CHECK_CONFIG?: boolean }).CLINIC_CHECK_CONFIG)).toBe(true)
    expect(await page.locator('body').innerText()).not.toContain('Config Errors')
    expect(errors).toEqual([])
    await context.close()
  })
})
