/**
 * The built site as each host answers it: `clinic-build serve`, Cloudflare Pages on its own
 * runtime (wrangler pages dev, tools/wrangler: `npm run tools`), and the stand-ins for Netlify and
 * GitHub Pages of tests/support/hosts.ts. Over HTTP: every route, the two other addresses of a
 * page, unknown addresses in each language, the policy, caching, and the editor's own policy at
 * /admin/. Then in Chromium through each host but `serve` (tests/deploy/policy.browser.test.ts and
 * tests/admin/ cover it): one page of each kind and the 404 pages load without a policy
 * violation, and the content editor starts and styles itself. One file, so that the site is built
 * and wrangler started once; a browser file, so that CI runs it on one Node line only.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { build } from '../../src/build/build.ts'
import { parseSite } from '../../src/content/site.ts'
import type { Route, SiteConfig } from '../../src/types.ts'
import { launchBrowser, serveFolder, watchedPage, type RunningServer } from '../support/browser.ts'
import { ARTICLES, projectRoot } from '../support/helpers.ts'
import { githubPagesHost, netlifyHost, wranglerPagesDev, wranglerVersion } from '../support/hosts.ts'
import { writtenHeaderRules } from '../support/headers.ts'
import { get } from '../support/http.ts'

/** How a host differs on what is tested here, as its docs (or its runtime) say. */
interface Host {
  name: string
  start: (dir: string) => Promise<RunningServer>
  /** Serves the folder built for Netlify (the shipped deploy.host), or the one built for Cloudflare Pages. */
  folder: 'netlify' | 'cloudflare'
  redirect: 301 | 308
  /** /x/index.html: redirected to /x/ (one address a page), or the page itself. */
  indexHtml: 'redirect' | 'page'
  /** Sets the headers of `_headers`; otherwise only the <meta> policy applies. */
  headers: boolean
  /** Each language's own 404 page, or the root 404.html everywhere (its script shows the language's in a browser). */
  notFound: 'language' | 'root'
  /** Opened in Chromium here. */
  browser: boolean
}

const HOSTS: Host[] = [
  { name: 'clinic-build serve', start: serveFolder, folder: 'netlify', redirect: 308, indexHtml: 'redirect', headers: true, notFound: 'language', browser: false },
  { name: `Cloudflare Pages (wrangler ${wranglerVersion()})`, start: wranglerPagesDev, folder: 'cloudflare', redirect: 308, indexHtml: 'redirect', headers: true, notFound: 'language', browser: true },
  { name: 'Netlify (its parsers, its documented rules)', start: netlifyHost, folder: 'netlify', redirect: 301, indexHtml: 'page', headers: true, notFound: 'language', browser: true },
  { name: 'GitHub Pages (its documented behaviour)', start: githubPagesHost, folder: 'netlify', redirect: 301, indexHtml: 'page', headers: false, notFound: 'root', browser: true },
]

let built: { netlify: string; cloudflare: string }
let routes: Route[]
let site: SiteConfig
let browser: Browser

/** One page of each kind, in both languages where it has both. */
const PAGES = ['/', '/cn/', '/services/', '/services/ear/', '/cn/services/ear/', `/blog/${ARTICLES[0]}/`, '/blog/', '/dr-evelyn-quah/', '/contact/', '/cn/contact/', '/privacy/']

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'clinic-hosts-')), 'netlify')
  const result = await build({ root: projectRoot, out, cache: false })
  if (!result.ok) throw new Error('the build failed')
  routes = result.table!.routes
  site = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') }).site!
  // Built with deploy.host: cloudflare-pages, the folder differs only in having no _redirects
  // (tests/deploy/deploy.test.ts): Cloudflare refuses Netlify's 404 rules.
  const cloudflare = join(out, '..', 'cloudflare')
  cpSync(out, cloudflare, { recursive: true })
  rmSync(join(cloudflare, '_redirects'))
  built = { netlify: out, cloudflare }
  browser = await launchBrowser({ provokesViolations: true }) // the violations are read here, per page
}, 120_000)
afterAll(() => browser?.close())

/** The `_headers` rules as written: path -> header -> value. */
const headerRules = (dir: string) => Object.fromEntries(writtenHeaderRules(readFileSync(join(dir, '_headers'), 'utf8')).map((r) => [r.path, r.headers]))

const langOf = (html: string) => /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1]
const metaPolicy = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]

describe.each(HOSTS)('$name', (host) => {
  let server: RunningServer
  let dir: string
  const at = (path: string) => get(`${server.url}${path}`)
  const file = (path: string) => readFileSync(join(dir, path))
  const asset = (ext: string) => readFileSync(join(dir, 'index.html'), 'utf8').match(new RegExp(`/assets/[^"]+\\.${ext}`))![0]

  beforeAll(async () => { dir = built[host.folder]; server = await host.start(dir) }, 60_000)
  afterAll(() => server?.close())

  test('every route answers 200 with its page, in its language', async () => {
    const pages = routes.filter((r) => r.status === 200)
    expect(pages.length).toBeGreaterThan(40)
    for (const route of pages) {
      const answer = await at(route.url)
      expect([route.url, answer.status]).toEqual([route.url, 200])
      expect(answer.body.equals(file(route.output)), route.url).toBe(true)
      expect(langOf(answer.body.toString()), route.url).toBe(site.locales.find((l) => l.code === route.locale)!.lang)
    }
  })

  test('/x redirects to /x/ with the query kept; /x/index.html too, where the host gives a page one address', async () => {
    for (const path of ['/contact', '/cn/services/ear']) {
      const answer = await at(`${path}?utm_source=a&x=%20y`)
      expect([path, answer.status, answer.headers.location]).toEqual([path, host.redirect, `${path}/?utm_source=a&x=%20y`])
    }
    const index = await at('/cn/contact/index.html?a=1')
    if (host.indexHtml === 'redirect') expect([index.status, index.headers.location]).toEqual([308, '/cn/contact/?a=1'])
    else expect([index.status, index.body.equals(file('cn/contact/index.html'))]).toEqual([200, true])
  })

  test('an unknown address answers 404 with its language\'s 404 page', async () => {
    for (const locale of site.locales) {
      const prefix = locale.code === site.defaultLocale ? '' : `/${locale.code}`
      for (const path of [`${prefix}/no-such-page/`, `${prefix}/services/no-such-service`, `${prefix}/blog/page/9/`]) {
        const answer = await at(path)
        expect([path, answer.status, answer.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8'])
        const page = host.notFound === 'root' || !prefix ? '404.html' : `${locale.code}/404.html`
        expect(answer.body.equals(file(page)), path).toBe(true)
      }
    }
  })

  test('pages carry the policy with its hashes; hashed assets are immutable; pages revalidate', async () => {
    const rules = headerRules(dir)
    const page = await at('/services/ear/')
    const meta = metaPolicy(page.body.toString())!
    expect(meta).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/)
    if (host.headers) {
      expect(page.headers['content-security-policy']).toBe(rules['/*']!['Content-Security-Policy'])
      expect(page.headers['content-security-policy']).toBe(`${meta}; frame-ancestors 'none'`)
      for (const name of ['X-Frame-Options', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy', 'Strict-Transport-Security']) {
        expect(page.headers[name.toLowerCase()], name).toBe(rules['/*']![name])
      }
      expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate')
      for (const ext of ['css', 'js']) expect((await at(asset(ext))).headers['cache-control']).toBe('public, max-age=31536000, immutable')
    } else {
      expect(page.headers['content-security-policy']).toBeUndefined()
      expect(page.headers['cache-control']).toBe('max-age=600')
    }
  })

  test('/admin/ answers with the editor\'s policy alone', async () => {
    const editor = headerRules(dir)['/admin/*']!
    const admin = await at('/admin/')
    expect(admin.status).toBe(200)
    if (host.headers) {
      expect(admin.headers['content-security-policy']).toBe(editor['Content-Security-Policy'])
      expect(admin.headers['x-robots-tag']).toBe('noindex, nofollow')
      expect(admin.headers['cache-control']).toBe('no-cache')
    } else {
      expect(admin.headers['content-security-policy']).toBeUndefined()
    }
    expect(editor['Content-Security-Policy']).toContain(metaPolicy(admin.body.toString())!)
    expect(editor['Content-Security-Policy']).toContain("style-src 'self' 'unsafe-inline'")
  })

  test.runIf(host.browser)('in Chromium: one page of each kind, and the 404 pages, load and run without a policy violation', async () => {
    const { page, violations } = await watchedPage(browser, 15_000)
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

  test.runIf(host.browser)('in Chromium: the content editor starts at /admin/ and styles itself, with no policy violation', async () => {
    const { page, violations } = await watchedPage(browser, 15_000)
    const response = await page.goto(`${server.url}/admin/`)
    expect(response!.status()).toBe(200)
    const login = page.getByRole('button', { name: /Login/i })
    await login.waitFor()
    // Decap's styles are inline <style> elements: under the site's policy they would be refused and the button unstyled.
    expect(await login.evaluate((b) => getComputedStyle(b).cursor)).toBe('pointer')
    // The bundle tries no eval as it starts (src/admin/bundle.ts), so any violation is a failure.
    expect(violations).toEqual([])
    await page.close()
  })
})
