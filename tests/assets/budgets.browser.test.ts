/**
 * The byte budgets (src/assets/budgets.ts), enforced on the built site: every page type, in both
 * languages, loads at most 25 KB of JavaScript and 20 KB of CSS after gzip, of which the shared
 * runtime is at most 8 KB; measured from what Chromium actually downloads, and matched against
 * the figures the build summary reports.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { budgets, gzipSize } from '../../src/assets/budgets.ts'
import { build } from '../../src/build/build.ts'
import { formatSummary, summarise, type Summary } from '../../src/build/summary.ts'
import type { RouteTable } from '../../src/types.ts'
import { launchBrowser, serveFolder, type RunningServer } from '../support/browser.ts'
import { islandsReady, offline, PAGE_TYPES } from '../support/design-pages.ts'
import { projectRoot } from '../support/helpers.ts'

let summary: Summary
let timings: Record<string, number>
let server: RunningServer
let browser: Browser
beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'clinic-budgets-')), 'dist')
  const result = await build({ root: projectRoot, out, cache: false })
  summary = result.summary!
  timings = result.timings
  server = await serveFolder(out)
  browser = await launchBrowser()
})
afterAll(async () => { await browser?.close(); await server?.close() })

/** Page type name (as in PAGE_TYPES) -> the template the summary counts it under. */
const TEMPLATE: Record<string, string> = {
  home: 'home', services: 'services', service: 'service', doctor: 'doctor', contact: 'contact', 'thank-you': 'thank-you',
  privacy: 'page', 404: 'not-found', 'blog-index': 'blog-index', article: 'article',
}

/** Gzipped sizes of the site's own scripts and stylesheets a page downloads while `visit` runs. */
async function downloads(visit: (page: Page) => Promise<void>) {
  const context = await browser.newContext()
  await offline(context)
  const page = await context.newPage()
  const loaded: Array<Promise<{ type: string; gzip: number }>> = []
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (response.url().startsWith(server.url) && (type === 'script' || type === 'stylesheet')) {
      loaded.push(response.body().then((body) => ({ type, gzip: gzipSize(body) })))
    }
  })
  await visit(page)
  await page.waitForLoadState('networkidle')
  const files = await Promise.all(loaded)
  await context.close()
  const sum = (type: string) => files.filter((f) => f.type === type).reduce((n, f) => n + f.gzip, 0)
  return { js: sum('script'), css: sum('stylesheet') }
}

test('the shared runtime, loaded on its own, fits its budget and is what the summary reports', async () => {
  const entry = (await (await fetch(server.url + '/')).text()).match(/<script type="module" src="([^"]+)"/)![1]!
  const { js } = await downloads(async (page) => {
    // A page of the site with no islands: only the runtime and what it imports load.
    await page.goto(server.url + '/robots.txt')
    await page.evaluate((src) => new Promise((done) => {
      const script = Object.assign(document.createElement('script'), { type: 'module', src, onload: done })
      document.head.append(script)
    }), entry)
  })
  expect(js).toBeLessThanOrEqual(budgets.sharedRuntime.limit)
  expect(js).toBe(summary.runtime.gzip)
})

describe.each(PAGE_TYPES)('$name', ({ name, url }) => {
  test('loads JavaScript and CSS within the budgets, as the build summary reports', async () => {
    const loaded = await downloads(async (page) => {
      await page.goto(server.url + url)
      await islandsReady(page)
    })
    expect(loaded.js).toBeLessThanOrEqual(budgets.pageJs.limit)
    expect(loaded.css).toBeLessThanOrEqual(budgets.pageCss.limit)
    const reported = summary.bytesPerPage[TEMPLATE[name.slice(3)]!]!
    expect(loaded).toEqual({ js: reported.js.gzip, css: reported.css.gzip })
  })
})

test('the build summary prints each page type against its budgets, and the shared runtime', () => {
  const text = formatSummary(summary, timings)
  expect(text).toMatch(/css \(budget 20\.0 KB\)\s+js \(budget 25\.0 KB\)/)
  expect(text).toMatch(/shared runtime js: [\d.]+ KB \/ [\d.]+ KB \(budget 8\.0 KB\)/)
  expect(text).toContain('every page fits its budgets')
  expect(summary.overBudget).toEqual([])
})

test('the summary names what goes over a budget', () => {
  // Random bytes do not compress: 30 KB of them are 30 KB after gzip.
  const noise = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(Math.random() * 256))
  const route = { url: '/', locale: 'en', path: '/', template: 'home' as const, alternates: { en: '/' }, status: 200 as const, output: 'index.html' }
  const table: RouteTable = { routes: [route], byUrl: new Map([['/', route]]) }
  const files = [
    { path: 'index.html', contents: '<div data-island="carousel"></div>' },
    { path: 'assets/main.A.js', contents: noise(9 * 1024) },
    { path: 'assets/chunks/carousel.B.js', contents: noise(20 * 1024) },
    { path: 'assets/site.C.css', contents: noise(21 * 1024) },
  ]
  const over = summarise(table, files, [], { stylesheet: '/assets/site.C.css', scripts: ['/assets/main.A.js'], runtime: ['/assets/main.A.js'], islands: { carousel: ['/assets/chunks/carousel.B.js'] } })
  expect(over.overBudget).toHaveLength(3)
  expect(over.overBudget[0]).toMatch(/^shared runtime JavaScript \(loaded by every page\) is 9\.\d KB gzipped, over its budget of 8\.0 KB\.$/)
  expect(over.overBudget[1]).toMatch(/^home: JavaScript of one page is 29\.\d KB gzipped, over its budget of 25\.0 KB\.$/)
  expect(over.overBudget[2]).toMatch(/^home: CSS of one page is 21\.\d KB gzipped, over its budget of 20\.0 KB\.$/)
})
