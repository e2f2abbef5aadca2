/**
 * Shared by the design tests and `npm run screenshots`: one page of every page type in every
 * language it exists in, and the built site served with a browser ready to visit it.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { buildSite, launchBrowser, serveFolder } from './browser.ts'

export interface PageType { name: string; url: string }

const bilingual = [
  ['home', '/'], ['services', '/services/'], ['service', '/services/rhinoplasty/'], ['doctor', '/dr-evelyn-quah/'],
  ['contact', '/contact/'], ['thank-you', '/thank-you/'], ['privacy', '/privacy/'], ['404', '/404.html'],
] as const
const englishOnly = [['blog-index', '/blog/'], ['article', '/blog/how-to-prepare-for-a-rhinoplasty/']] as const

export const PAGE_TYPES: PageType[] = [
  ...[...bilingual, ...englishOnly].map(([name, url]) => ({ name: `en-${name}`, url })),
  ...bilingual.map(([name, url]) => ({ name: `cn-${name}`, url: `/cn${url}` })),
]

/** Keeps a browser context on the local server: the font service and the map are not reached. */
export async function offline(context: BrowserContext): Promise<void> {
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort())
}

export interface Site {
  url: string
  browser: Browser
  /** A page in a fresh offline context (its own viewport, media and clock). */
  open: (path: string, options?: BrowserContextOptions & { beforeGoto?: (page: Page) => Promise<void> }) => Promise<Page>
  close: () => Promise<void>
}

/** Builds the site, serves it on 127.0.0.1 and starts Chromium: one of each per test file. */
export async function openSite(): Promise<Site> {
  const server = await serveFolder(await buildSite())
  const browser = await launchBrowser()
  const contexts: BrowserContext[] = []
  return {
    url: server.url,
    browser,
    async open(path, { beforeGoto, ...options } = {}) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, ...options })
      contexts.push(context)
      await offline(context)
      const page = await context.newPage()
      await beforeGoto?.(page)
      await page.goto(server.url + path)
      return page
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close()))
      await browser.close()
      await server.close()
    },
  }
}

/** Waits until every island on the page has started (mountIslands marks each one it ran). */
export async function islandsReady(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('[data-island]')].every((el) => el.hasAttribute('data-island-ready')))
}
