/**
 * The security policy in force in Chromium: every page, served with the headers of `_headers`
 * (and its own <meta> policy), loads and runs without a single Content-Security-Policy violation.
 * And the root 404 page as GitHub Pages serves it shows the Chinese 404 under /cn/.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser } from 'playwright-core'
import sirv from 'sirv'
import { buildSite, launchBrowser, watchedPage, type RunningServer } from '../support/browser.ts'
import { BILINGUAL_PATHS, ENGLISH_ONLY_PATHS } from '../support/helpers.ts'
import { writtenHeaderRules } from '../support/headers.ts'

let browser: Browser
let dist: string
const servers: RunningServer[] = []

beforeAll(async () => {
  dist = await buildSite()
  browser = await launchBrowser({ provokesViolations: true }) // one test breaks the policy on purpose; every test here reads the reports
})
afterAll(async () => { await browser?.close(); for (const s of servers) await s.close() })

/**
 * A static host: the folder's files with the `_headers` rules of their path; a missing path gets
 * `notFound(path)` with status 404 (GitHub Pages: the root 404.html; Cloudflare: the nearest).
 */
async function host(notFound: (path: string) => string): Promise<RunningServer> {
  const rules = writtenHeaderRules(readFileSync(join(dist, '_headers'), 'utf8'))
  const apply = (res: { setHeader: (k: string, v: string) => void }, path: string) => {
    for (const { path: pattern, headers } of rules) if (path.startsWith(pattern.replace(/\*$/, ''))) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v)
  }
  const files = sirv(dist, { dev: true, setHeaders: (res, path) => apply(res, path) })
  const server: Server = createServer((req, res) => files(req, res, () => {
    const page = notFound(new URL(req.url!, 'http://x').pathname)
    apply(res, page)
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(dist, page)))
  }))
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const running = { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()) }) }
  servers.push(running)
  return running
}

const PATHS = [...BILINGUAL_PATHS.flatMap((p) => [p, `/cn${p}`]), ...ENGLISH_ONLY_PATHS]

describe('the policy in force', () => {
  let site: RunningServer
  beforeAll(async () => { site = await host((path) => (path.startsWith('/cn/') ? 'cn/404.html' : '404.html')) })

  test.each(PATHS)('%s loads and runs without a policy violation', async (path) => {
    const { page, violations } = await watchedPage(browser)
    const response = await page.goto(site.url + path, { waitUntil: 'load' })
    expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    await page.waitForLoadState('networkidle')
    // Open a page in place too, so the runtime's fetch and swap run under the policy.
    const link = page.locator('main a[href^="/"]').first()
    if (await link.count()) { await link.click(); await page.waitForLoadState('networkidle') }
    expect(violations, path).toEqual([])
    // The policy really is in force: an inline script added now, with no hash, is refused and reported.
    const ran = await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.injected = true'
      document.head.append(script)
      return (window as unknown as { injected?: boolean }).injected ?? false
    })
    expect(ran).toBe(false)
    await expect.poll(() => violations.length).toBeGreaterThan(0)
    await page.close()
  })

  test('the 404 pages load without a policy violation', async () => {
    for (const path of ['/nowhere/', '/cn/nowhere/']) {
      const { page, violations } = await watchedPage(browser)
      const response = await page.goto(site.url + path, { waitUntil: 'networkidle' })
      expect(response!.status()).toBe(404)
      expect(violations, path).toEqual([])
      await page.close()
    }
  })
})

describe('GitHub Pages', () => {
  test('the root 404 page shows the Chinese 404 under /cn/ and stays English elsewhere, within the policy', async () => {
    const pages = await host(() => '404.html')
    const { page, violations } = await watchedPage(browser)
    const response = await page.goto(`${pages.url}/cn/services/nowhere/`)
    expect(response!.status()).toBe(404)
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('zh')
    expect(await page.locator('h1').textContent()).toBe('找不到此页面')
    expect(await page.title()).toContain('找不到此页面')
    expect(await page.locator('main a').first().getAttribute('href')).toBe('/cn/')
    expect(violations).toEqual([])
    await page.goto(`${pages.url}/services/nowhere/`, { waitUntil: 'networkidle' })
    expect(await page.getAttribute('html', 'lang')).toBe('en')
    expect(await page.locator('h1').textContent()).toBe('This page could not be found')
    expect(violations).toEqual([])
    await page.close()
  })
})
