/** Shared set-up of the runtime's browser tests: a built site, its server, Chromium. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'
import { buildSite, chromiumOptions, launchBrowser, serveFolder, type RunningServer } from './browser.ts'

export interface Site { dist: string; server: RunningServer; browser: Browser; url: (path: string) => string; close: () => Promise<void> }

/** Builds the site at `root` (the repository's by default), serves it and launches Chromium. */
export async function startSite(root?: string): Promise<Site> {
  const dist = await buildSite(root)
  const server = await serveFolder(dist)
  const browser = await launchBrowser()
  return {
    dist, server, browser,
    url: (path) => server.url + path,
    close: async () => { await browser.close(); await server.close() },
  }
}

/**
 * A fresh browser context whose requests to other origins (fonts, maps) are answered at once with
 * an error, so that no test depends on the internet; `allow` lets some through to the test's own routes.
 */
export async function isolatedContext(site: Site, options: BrowserContextOptions = {}, allow: RegExp[] = []): Promise<BrowserContext> {
  const context = await site.browser.newContext(options)
  await context.route((url) => !url.href.startsWith(site.server.url) && !allow.some((re) => re.test(url.href)), (route) => route.abort())
  return context
}

/** Marks the document, so a test can tell a swap (the mark survives) from a full page load. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => { (window as unknown as { sameDocument: boolean }).sameDocument = true })
}

export async function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true)
}

/** Adds a link to the main content and returns a locator for it (for targets no page links to). */
export async function addLink(page: Page, href: string, attributes: Record<string, string> = {}): Promise<ReturnType<Page['locator']>> {
  const id = `test-link-${Math.random().toString(36).slice(2)}`
  await page.evaluate(({ href, attributes, id }) => {
    const link = document.createElement('a')
    link.href = href
    link.id = id
    link.textContent = `test link to ${href}`
    for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value)
    document.querySelector('main')!.prepend(link)
  }, { href, attributes, id })
  return page.locator(`#${id}`)
}

/** The head tags a navigation must swap, as markup, in a stable order. */
export function headTags(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.head.querySelectorAll('title, meta[name], link[rel=canonical], link[rel=alternate], meta[property]')]
    .map((e) => e.outerHTML).sort())
}

/**
 * Chromium with its real "Send a Do Not Track request" setting on (a profile preference), so that
 * `navigator.doNotTrack` is '1' as for a visitor who chose it. `close` stops it and removes the profile.
 */
export async function doNotTrackContext(site: Site, allow: RegExp[] = []): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'clinic-dnt-'))
  mkdirSync(join(profile, 'Default'))
  writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ enable_do_not_track: true }))
  const context = await chromium.launchPersistentContext(profile, chromiumOptions)
  await context.route((url) => !url.href.startsWith(site.server.url) && !allow.some((re) => re.test(url.href)), (route) => route.abort())
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
    },
  }
}
