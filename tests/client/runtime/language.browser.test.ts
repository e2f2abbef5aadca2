/**
 * The language cookie and the root redirect in Chromium: every page load writes the page's
 * language, the switcher writes the target's before it navigates, and `/` alone sends a visitor
 * to the language their cookie names, or their browser prefers when they have no cookie.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { isolatedContext, isSameDocument, markDocument, startSite, type Site } from '../../support/runtime.ts'

let site: Site
beforeAll(async () => { site = await startSite() })
afterAll(async () => { await site?.close() })

const YEAR = 365 * 24 * 60 * 60

async function languageCookie(context: BrowserContext) {
  return (await context.cookies(site.url('/'))).find((c) => c.name === 'i18n_redirected')
}

/** A context whose browser prefers `locale`, optionally with the cookie already set. */
async function visitor(locale: string, cookie?: string): Promise<{ context: BrowserContext; page: Page; documents: string[] }> {
  const context = await isolatedContext(site, { locale })
  if (cookie) await context.addCookies([{ name: 'i18n_redirected', value: cookie, url: site.url('/') }])
  const page = await context.newPage()
  const documents: string[] = []
  page.on('request', (r) => { if (r.resourceType() === 'document' && r.url().startsWith(site.server.url)) documents.push(r.url().slice(site.server.url.length)) })
  return { context, page, documents }
}

test('every page load writes the page\'s language: path /, 365 days, SameSite=Lax', async () => {
  const { context, page } = await visitor('en-SG')
  await page.goto(site.url('/cn/contact/'))
  const cookie = await languageCookie(context)
  expect(cookie).toMatchObject({ value: 'cn', path: '/', sameSite: 'Lax', httpOnly: false })
  expect(Math.abs(cookie!.expires - (Date.now() / 1000 + YEAR))).toBeLessThan(120)
  await page.goto(site.url('/blog/'))
  expect((await languageCookie(context))?.value).toBe('en')
  await context.close()
})

test('a page reached in place in another language writes that language too', async () => {
  const { context, page } = await visitor('en-SG')
  await page.goto(site.url('/cn/'))
  await markDocument(page)
  await page.locator('#site-nav a[href="/blog/"]').click() // the English-only blog, from the Chinese navigation
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en')
  expect(await isSameDocument(page)).toBe(true)
  expect((await languageCookie(context))?.value).toBe('en')
  await context.close()
})

test('the language switcher writes the target language before the browser loads it in full', async () => {
  const { context, page } = await visitor('zh-CN')
  await page.goto(site.url('/cn/services/'))
  const cookieSent: Array<string | undefined> = []
  page.on('request', (r) => { if (r.resourceType() === 'document') cookieSent.push(r.headers().cookie) })
  await markDocument(page)
  await page.locator('.language-switcher a').click()
  await page.waitForURL(site.url('/services/'))
  expect(cookieSent).toEqual(['i18n_redirected=en'])
  expect(await isSameDocument(page)).toBe(false)

  // The switcher to English on the Chinese home page leads to `/`, which must not bounce back.
  await page.goto(site.url('/cn/'))
  await page.locator('.language-switcher a').click()
  await page.waitForURL(site.url('/'))
  await page.waitForLoadState('load')
  expect(page.url()).toBe(site.url('/'))
  expect((await languageCookie(context))?.value).toBe('en')
  await context.close()
})

test('at the root, a browser that prefers Chinese and has no cookie is sent to /cn/ once, with the cookie set', async () => {
  const { context, page, documents } = await visitor('zh-CN')
  expect(await page.evaluate(() => navigator.languages)).toEqual(['zh-CN'])
  await page.route('http://elsewhere.test/', (route) => route.fulfill({ contentType: 'text/html', body: '<title>elsewhere</title>' }))
  await page.goto('http://elsewhere.test/')
  const entries = await page.evaluate(() => history.length)
  await page.goto(site.url('/'))
  await page.waitForURL(site.url('/cn/'))
  await page.waitForLoadState('load')
  expect(documents).toEqual(['/', '/cn/']) // nothing more: no loop
  expect((await languageCookie(context))?.value).toBe('cn')
  // location.replace: Back leaves the site instead of bouncing through `/` again.
  expect(await page.evaluate(() => history.length)).toBe(entries + 1)
  await page.goBack()
  expect(page.url()).toBe('http://elsewhere.test/')
  await context.close()
})

test('at the root, the cookie decides: cn goes to /cn/ whatever the browser prefers, en stays', async () => {
  for (const [locale, cookie, expected] of [['en-SG', 'cn', '/cn/'], ['zh-CN', 'en', '/'], ['zh-TW', 'en', '/']] as const) {
    const { context, page, documents } = await visitor(locale, cookie)
    await page.goto(site.url('/'))
    await page.waitForURL(site.url(expected))
    await page.waitForLoadState('load')
    expect({ locale, cookie, documents }).toEqual({ locale, cookie, documents: expected === '/' ? ['/'] : ['/', expected] })
    await context.close()
  }
})

test('a browser preferring another language, or any Chinese tag, is matched by its first known language', async () => {
  for (const [locale, expected] of [['zh-HK', '/cn/'], ['en-US', '/'], ['fr-FR', '/']] as const) {
    const { context, page } = await visitor(locale)
    await page.goto(site.url('/'))
    await page.waitForURL(site.url(expected))
    await page.waitForLoadState('load')
    expect({ locale, url: page.url() }).toEqual({ locale, url: site.url(expected) })
    await context.close()
  }
})

test('no redirect on any path but the root, whatever the cookie or the browser says', async () => {
  for (const [locale, cookie, path] of [['zh-CN', undefined, '/contact/'], ['zh-CN', 'cn', '/services/'], ['en-SG', 'cn', '/blog/'], ['zh-CN', undefined, '/404.html']] as const) {
    const { context, page, documents } = await visitor(locale, cookie)
    await page.goto(site.url(path))
    await page.waitForLoadState('load')
    expect({ path, cookie, url: page.url(), documents }).toEqual({ path, cookie, url: site.url(path), documents: [path] })
    await context.close()
  }
})
