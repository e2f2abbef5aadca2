/**
 * The whole site with JavaScript off, crawled in Chromium: every page and every link works as
 * plain HTML. And the built files the runtime depends on: the inline scripts, identical on every
 * page and exactly the exported text; the shared runtime within its budget; no tags shipped.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { budgets, gzipSize } from '../../../src/assets/budgets.ts'
import { notFoundScript } from '../../../src/deploy/not-found-language.ts'
import { inlineScriptSources } from '../../../src/assets/inline-scripts.ts'
import { isolatedContext, startSite, type Site } from '../../support/runtime.ts'

let site: Site
beforeAll(async () => { site = await startSite() })
afterAll(async () => { await site?.close() })

/** The site's pages: the content editor's (admin/) is no page of the site. */
const builtPages = () => readdirSync(site.dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && !f.startsWith('admin/'))
const read = (file: string) => readFileSync(join(site.dist, file), 'utf8')

test('with JavaScript off, every page reachable from the home pages loads, shows its content and links only to what exists', async () => {
  const context = await isolatedContext(site, { javaScriptEnabled: false, locale: 'zh-CN' })
  const page = await context.newPage()
  // The thank-you pages are where the contact form leads, and hosts answer unknown URLs with the 404 pages.
  const queue = ['/', '/cn/', '/thank-you/', '/cn/thank-you/', '/404.html', '/cn/404.html']
  const seen = new Set(queue)
  const problems: string[] = []
  while (queue.length) {
    const path = queue.shift()!
    // 'load': the stylesheet must have arrived, or a button it hides would count as visible.
    const response = await page.goto(site.url(path), { waitUntil: 'load' })
    if (response?.status() !== 200) { problems.push(`${path}: status ${response?.status()}`); continue }
    if (page.url() !== site.url(path)) problems.push(`${path}: moved to ${page.url()}`)
    if (!path.endsWith('/') && !path.endsWith('.html')) continue // a file (image, sitemap): nothing to read
    if (await page.locator('main h1').count() !== 1) problems.push(`${path}: no single h1 in main`)
    if (!(await page.locator('#site-nav a').first().isVisible())) problems.push(`${path}: navigation hidden`)
    if (await page.locator('.menu-button').isVisible()) problems.push(`${path}: a menu button that needs JavaScript`)
    if (await page.locator('[data-persist], [role=progressbar]').count()) problems.push(`${path}: runtime elements without JavaScript`)
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
    for (const href of hrefs) {
      const url = new URL(href)
      if (url.origin !== new URL(site.server.url).origin) continue
      if (url.hash && url.pathname === new URL(page.url()).pathname) {
        const id = decodeURIComponent(url.hash.slice(1))
        if (await page.locator(`[id="${id}"]`).count() !== 1) problems.push(`${path}: anchor ${url.hash} has no target`)
        continue
      }
      if (!seen.has(url.pathname)) { seen.add(url.pathname); queue.push(url.pathname) }
    }
  }
  expect(problems).toEqual([])
  const pages = builtPages().map((f) => `/${f.replace(/index\.html$/, '')}`)
  expect(pages.filter((p) => !seen.has(p))).toEqual([]) // every built page was visited
  await context.close()
})

test('with JavaScript off, links navigate, the language switcher switches and the root never redirects', async () => {
  const context = await isolatedContext(site, { javaScriptEnabled: false, locale: 'zh-CN' })
  await context.addCookies([{ name: 'i18n_redirected', value: 'cn', url: site.url('/') }])
  const page = await context.newPage()
  await page.goto(site.url('/'))
  expect(page.url()).toBe(site.url('/'))
  await page.locator('#site-nav a[href="/services/"]').click()
  await page.waitForURL(site.url('/services/'))
  expect(await page.locator('main h1').textContent()).toBe('Services')
  await page.locator('.language-switcher a').click()
  await page.waitForURL(site.url('/cn/services/'))
  await page.locator('a[href="#main"]').focus()
  expect(await page.locator('a[href="#main"]').isVisible()).toBe(true) // the skip link still works
  await context.close()
})

test('every page carries the same inline scripts, exactly the text src/assets/inline-scripts.ts exports', () => {
  // The root 404 alone adds the script that shows another language's 404 on single-404 hosts.
  const languageNotFound = notFoundScript({ cn: '/cn/404.html' })
  const differing: string[] = []
  for (const file of builtPages()) {
    const inline = [...read(file).matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/type="application\/(ld\+)?json"/.test(attributes!))
      .map(([, , text]) => text)
    const expected = file === '404.html' ? [...inlineScriptSources(), languageNotFound] : inlineScriptSources()
    if (JSON.stringify(inline) !== JSON.stringify(expected)) differing.push(file)
  }
  expect(builtPages().length).toBeGreaterThanOrEqual(50)
  expect(differing).toEqual([])
  for (const source of inlineScriptSources()) expect(source.length).toBeLessThan(1024)
})

test('the shared runtime (the entry script and the chunks it imports) fits its 8 KB gzip budget', () => {
  const home = read('index.html')
  const entry = /<script type="module" src="\/(assets\/main\.[^"]+\.js)"/.exec(home)![1]!
  const files = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const code = read(file)
    // Static imports only: dynamic import() chunks load with the page's islands or tags, not with every page.
    for (const [, spec] of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{},\s]+from\s*)?["']([^"']+)["']/g)) visit(join(file, '..', spec!))
  }
  visit(entry)
  const bytes = [...files].reduce((sum, f) => sum + gzipSize(readFileSync(join(site.dist, f))), 0)
  expect(bytes).toBeLessThanOrEqual(budgets.sharedRuntime.limit)
  expect(bytes).toBeGreaterThan(1000)
})

test('the shipped configuration has no analytics: no tag, no frame, no settings on any page', () => {
  for (const file of builtPages()) {
    const html = read(file)
    expect(html, file).not.toContain('googletagmanager')
    expect(html, file).not.toContain('"analytics"')
  }
})
