/**
 * Chromium through each host (Cloudflare Pages on wrangler, the Netlify and GitHub Pages models of
 * tests/support/hosts.ts): one page of each kind and the 404 pages load without a policy
 * violation, and the content editor at /admin/ starts and styles itself under its own policy.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { build } from '../../src/build/build.ts'
import { launchBrowser, type RunningServer } from '../support/browser.ts'
import { ARTICLES, projectRoot } from '../support/helpers.ts'
import { githubPagesHost, netlifyHost, wranglerPagesDev, wranglerVersion } from '../support/hosts.ts'

const HOSTS = [
  { name: `Cloudflare Pages (wrangler ${wranglerVersion()})`, start: wranglerPagesDev, folder: 'cloudflare', headers: true },
  { name: 'Netlify (model)', start: netlifyHost, folder: 'netlify', headers: true },
  { name: 'GitHub Pages (model)', start: githubPagesHost, folder: 'netlify', headers: false },
] as const

/** One page of each kind, in both languages where it has both. */
const PAGES = ['/', '/cn/', '/services/', '/services/ear/', '/cn/services/ear/', `/blog/${ARTICLES[0]}/`, '/blog/', '/dr-evelyn-quah/', '/contact/', '/cn/contact/', '/privacy/']

let browser: Browser
let built: { netlify: string; cloudflare: string }

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'clinic-hosts-')), 'netlify')
  if (!(await build({ root: projectRoot, out, cache: false })).ok) throw new Error('the build failed')
  const cloudflare = join(out, '..', 'cloudflare') // as built for Cloudflare Pages: no _redirects (tests/deploy/hosts.test.ts)
  cpSync(out, cloudflare, { recursive: true })
  rmSync(join(cloudflare, '_redirects'))
  built = { netlify: out, cloudflare }
  browser = await launchBrowser({ provokesViolations: true }) // the violations are read here, per page
}, 120_000)
afterAll(() => browser?.close())

/** A page that records every policy violation, as an event or on the console; nothing leaves 127.0.0.1. */
async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  const violations: string[] = []
  await page.exposeFunction('reportViolation', (v: string) => { violations.push(v) })
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`)
    })
  })
  page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text()) })
  await page.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort())
  return { page, violations }
}

describe.each(HOSTS)('$name', (host) => {
  let server: RunningServer
  beforeAll(async () => { server = await host.start(built[host.folder]) }, 60_000)
  afterAll(() => server?.close())

  test('one page of each kind, and the 404 pages, load and run without a policy violation', async () => {
    const { page, violations } = await watchedPage()
    for (const path of PAGES) {
      const response = await page.goto(server.url + path, { waitUntil: 'networkidle' })
      expect([path, response!.status()]).toEqual([path, 200])
      expect(response!.headers()['content-security-policy'] !== undefined, path).toBe(host.headers)
    }
    for (const [path, heading] of [['/nowhere/', 'This page could not be found'], ['/cn/nowhere/', '找不到此页面']] as const) {
      const response = await page.goto(server.url + path, { waitUntil: 'networkidle' })
      expect(response!.status()).toBe(404)
      await expect.poll(() => page.locator('h1').textContent(), { message: path }).toBe(heading) // GitHub Pages: the root page's script shows the Chinese one
    }
    expect(violations).toEqual([])
    // The policy is in force: an inline script with no hash is refused, and reported.
    expect(await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.injected = true'
      document.head.append(script)
      return (window as unknown as { injected?: boolean }).injected ?? false
    })).toBe(false)
    await expect.poll(() => violations.length).toBeGreaterThan(0)
    await page.close()
  })

  test('the content editor starts at /admin/ and styles itself, with no policy violation', async () => {
    const { page, violations } = await watchedPage()
    const response = await page.goto(`${server.url}/admin/`)
    expect(response!.status()).toBe(200)
    const login = page.getByRole('button', { name: /Login/i })
    await login.waitFor()
    // Decap's styles are inline <style> elements: under the site's policy they would be refused and the button unstyled.
    expect(await login.evaluate((b) => getComputedStyle(b).cursor)).toBe('pointer')
    // Two libraries of the bundle probe for Node at start-up inside try/catch (`eval("require('util')…")`,
    // `Function("stub", "process = stub")`); the policy refuses both, as it should, and they carry on.
    expect(violations.filter((v) => v !== 'script-src blocked eval')).toEqual([])
    await page.close()
  })
})
