/**
 * Browser test harness: the real site built into a temporary folder, served on 127.0.0.1, and
 * Debian's Chromium driven by playwright-core. Each test file starts and stops what it uses.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { build } from '../../src/build/build.ts'
import { loadHeaderRules, startServer } from '../../src/serve/index.ts'
import { projectRoot } from './helpers.ts'

/** Builds a site (the repository's own by default) into a fresh temporary folder. */
export async function buildSite(root = projectRoot): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'clinic-dist-')), 'dist')
  const result = await build({ root, out, cache: false })
  if (!result.ok) throw new Error(`build failed:\n${result.diagnostics.map((d) => `${d.file}: ${d.message}`).join('\n')}`)
  return out
}

export interface RunningServer { url: string; close: () => Promise<void> }

/**
 * Serves a built folder on a free port of 127.0.0.1 with `clinic-build serve`'s server: redirects,
 * 404 pages, caching, compression and the folder's `_headers`, as the site will be served.
 */
export async function serveFolder(dir: string): Promise<RunningServer> {
  const headerRules = await loadHeaderRules(dir, (message) => { throw new Error(message) })
  const { url, close } = await startServer({ dir, port: 0, headerRules })
  return { url, close }
}

/** How every test starts Chromium: Debian's, headless; never a downloaded browser. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
}

/**
 * Chromium for a test file. Every page it opens runs under the site's Content-Security-Policy
 * (from `_headers`, or the `<meta>` copy in every page), and any violation the browser reports
 * fails the file: closing the browser throws with the list. `provokesViolations`: for a file that
 * breaks the policy on purpose and checks the report itself.
 */
export async function launchBrowser({ provokesViolations = false } = {}): Promise<Browser> {
  const browser = await chromium.launch(chromiumOptions)
  if (provokesViolations) return browser
  const violations: string[] = []
  const watch = (target: BrowserContext | Page) => target.on('console', (message) => {
    const text = message.text()
    // axe-core fetches every stylesheet to read it, the font service's too: the test tool's request, not the site's.
    const axeReadingFonts = /connect-src/.test(text) && text.includes('https://fonts.googleapis.com/')
    if (/Content Security Policy/.test(text) && !axeReadingFonts) violations.push(`${message.location().url}: ${text}`)
  })
  const { newContext, newPage, close } = browser
  browser.newContext = async (options) => { const context = await newContext.call(browser, options); watch(context); return context }
  browser.newPage = async (options) => { const page = await newPage.call(browser, options); watch(page); return page }
  browser.close = async (options) => {
    await close.call(browser, options)
    if (violations.length) throw new Error(`Content-Security-Policy violations reported by the browser:\n${[...new Set(violations)].join('\n')}`)
  }
  return browser
}

/**
 * A page of a `provokesViolations` browser that records each policy violation, reported as an
 * event (with where it came from) or on the console, for the test to read. Nothing leaves
 * 127.0.0.1; the policy is checked before a request is made, so it still applies.
 */
export async function watchedPage(browser: Browser, timeout = 10_000): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage()
  page.setDefaultTimeout(timeout)
  const violations: string[] = []
  await page.exposeFunction('reportViolation', (v: string) => { violations.push(v) })
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`)
    })
  })
  page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text()) })
  await page.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort())
  return { page, violations }
}

/**
 * Waits for `done` on a page whose clock stands still (page.clock.pauseAt), running the timers
 * that are due without moving the time: islands are requested in a task after the runtime's start
 * (src/client/islands.ts), and a paused clock runs that task only when told to.
 */
export async function untilOnPausedClock(page: Page, done: () => Promise<boolean>): Promise<void> {
  await expect.poll(async () => {
    await page.clock.runFor(0)
    return done()
  }).toBe(true)
}
