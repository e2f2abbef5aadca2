/**
 * Analytics and script-failure recovery in Chromium, on a copy of the site with tag IDs set: page
 * views in the dataLayer over several navigations, Do Not Track (Chromium's own setting), the
 * GTM noscript frame, and the inline guard reloading once when a script or chunk fails or hangs.
 * Requests to the tag hosts are answered by the test with a tiny script and counted.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { copySite, edit } from '../../support/helpers.ts'
import { untilOnPausedClock } from '../../support/browser.ts'
import { addLink, doNotTrackContext, isolatedContext, startSite, type Site } from '../../support/runtime.ts'

const TAG_HOSTS = /^https:\/\/www\.googletagmanager\.com\//
const TITLE = 'Amberlin Plastic Surgery Clinic'

let site: Site
beforeAll(async () => {
  const dir = copySite()
  edit(dir, 'content/site.yaml', (text) => text.replace('gtmId: ""', 'gtmId: "GTM-TEST123"').replace('gaId: ""', 'gaId: "G-TEST123"'))
  site = await startSite(dir)
})
afterAll(async () => { await site?.close() })

/** Answers every request to the tag hosts with a tiny script and records its URL. */
async function stubTags(context: BrowserContext): Promise<string[]> {
  const requests: string[] = []
  await context.route(TAG_HOSTS, (route) => {
    requests.push(route.request().url())
    return route.fulfill({ contentType: 'text/javascript', body: '/* tag */' })
  })
  return requests
}

type Entry = Record<string, unknown> | unknown[]
/** The dataLayer, with gtag's arguments objects turned into arrays. */
const dataLayer = (page: Page) => page.evaluate(() => {
  const layer = (window as unknown as { dataLayer?: unknown[] }).dataLayer
  return layer?.map((e) => (Object.prototype.toString.call(e) === '[object Arguments]' ? Array.from(e as ArrayLike<unknown>) : e)) as Entry[] | undefined
})
const pageViews = async (page: Page) => ((await dataLayer(page)) ?? []).filter((e) => !Array.isArray(e) && e.event === 'page_view')
const gtagPageViews = async (page: Page) => ((await dataLayer(page)) ?? []).filter((e) => Array.isArray(e) && e[0] === 'event' && e[1] === 'page_view') as unknown[][]
const h1 = (page: Page) => page.locator('main h1').textContent()

test('one page view per page shown, with the exact dataLayer shape, and one anonymised gtag page_view each', async () => {
  const context = await isolatedContext(site, {}, [TAG_HOSTS])
  const requests = await stubTags(context)
  const page = await context.newPage()
  await page.goto(site.url('/'))
  await expect.poll(() => pageViews(page).then((v) => v.length)).toBe(1)

  await page.locator('#site-nav a[href="/services/"]').click()
  await expect.poll(() => pageViews(page).then((v) => v.length)).toBe(2)
  await page.locator('main a[href="/services/rhinoplasty/"]').first().click()
  await expect.poll(() => pageViews(page).then((v) => v.length)).toBe(3)
  // An anchor on the same page: no page view (the service tabs replace their own #links with tabs).
  await (await addLink(page, '#what-it-is')).click()
  await page.goBack()
  await page.goBack()
  await expect.poll(() => h1(page)).toBe('Services')
  await expect.poll(() => pageViews(page).then((v) => v.length)).toBe(4)
  await page.goForward()
  await expect.poll(() => pageViews(page).then((v) => v.length)).toBe(5)

  expect(await pageViews(page)).toEqual([
    { event: 'page_view', pageType: 'PageView', pageUrl: '/', pageTitle: TITLE, routeName: 'index___en' },
    { event: 'page_view', pageType: 'PageView', pageUrl: '/services/', pageTitle: `Services | ${TITLE}`, routeName: 'services___en' },
    { event: 'page_view', pageType: 'PageView', pageUrl: '/services/rhinoplasty/', pageTitle: `Rhinoplasty | ${TITLE}`, routeName: 'services-rhinoplasty___en' },
    { event: 'page_view', pageType: 'PageView', pageUrl: '/services/', pageTitle: `Services | ${TITLE}`, routeName: 'services___en' },
    { event: 'page_view', pageType: 'PageView', pageUrl: '/services/rhinoplasty/', pageTitle: `Rhinoplasty | ${TITLE}`, routeName: 'services-rhinoplasty___en' },
  ])
  const hits = await gtagPageViews(page)
  expect(hits).toHaveLength(5)
  for (const hit of hits) expect(hit[2]).toMatchObject({ send_to: 'G-TEST123', anonymize_ip: true })
  expect(hits.map((h) => (h[2] as { page_path: string }).page_path)).toEqual(['/', '/services/', '/services/rhinoplasty/', '/services/', '/services/rhinoplasty/'])
  const layer = (await dataLayer(page))!
  expect(layer).toContainEqual(['set', { anonymize_ip: true }])
  expect(layer).toContainEqual(['config', 'G-TEST123', { anonymize_ip: true, send_page_view: false }])
  expect(layer.filter((e) => !Array.isArray(e) && e.event === 'gtm.js')).toHaveLength(1)

  expect(requests.sort()).toEqual([
    'https://www.googletagmanager.com/gtag/js?id=G-TEST123',
    'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123',
  ])
  expect(await page.locator('script[src^="https://www.googletagmanager.com/"]').evaluateAll((all) => all.every((s) => (s as HTMLScriptElement).async))).toBe(true)
  await context.close()
})

test('Chinese pages name their routes with their locale', async () => {
  const context = await isolatedContext(site, {}, [TAG_HOSTS])
  await stubTags(context)
  const page = await context.newPage()
  await page.goto(site.url('/cn/contact/'))
  await expect.poll(() => pageViews(page)).toEqual([expect.objectContaining({ pageUrl: '/cn/contact/', routeName: 'contact___cn' })])
  await context.close()
})

test('with Do Not Track on, no tag script is requested and nothing is pushed', async () => {
  const { context, close } = await doNotTrackContext(site, [TAG_HOSTS])
  const requests = await stubTags(context)
  const chunks: string[] = []
  context.on('request', (r) => { if (r.url().includes('/assets/chunks/analytics')) chunks.push(r.url()) })
  const page = await context.newPage()
  expect(await page.evaluate(() => navigator.doNotTrack)).toBe('1')
  await page.goto(site.url('/'))
  await page.locator('#site-nav a[href="/services/"]').click()
  await expect.poll(() => h1(page)).toBe('Services')
  await page.goBack()
  await expect.poll(() => page.url()).toBe(site.url('/'))
  await expect.poll(() => h1(page)).not.toBe('Services')
  expect(await dataLayer(page)).toBeUndefined()
  expect(requests).toEqual([])
  expect(chunks).toEqual([])
  await close()
})

test('the other ways browsers say Do Not Track are respected too', async () => {
  const signals = [
    "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => 'yes' })",
    "Object.defineProperty(window, 'doNotTrack', { value: '1' })",
    "Object.defineProperty(Navigator.prototype, 'msDoNotTrack', { get: () => '1' })",
  ]
  for (const signal of signals) {
    const context = await isolatedContext(site, {}, [TAG_HOSTS])
    const requests = await stubTags(context)
    await context.addInitScript(signal)
    const page = await context.newPage()
    await page.goto(site.url('/'))
    await page.locator('#site-nav a[href="/services/"]').click()
    await expect.poll(() => h1(page)).toBe('Services')
    expect({ signal, layer: await dataLayer(page), requests }).toEqual({ signal, layer: undefined, requests: [] })
    await context.close()
  }
})

test('without JavaScript, the tag manager\'s noscript frame is the only tag request', async () => {
  const context = await isolatedContext(site, { javaScriptEnabled: false }, [TAG_HOSTS])
  const requests = await stubTags(context)
  const page = await context.newPage()
  await page.goto(site.url('/'))
  await expect.poll(() => requests).toEqual(['https://www.googletagmanager.com/ns.html?id=GTM-TEST123'])
  expect(await page.locator('iframe[src*="ns.html"]').isVisible()).toBe(false)
  await context.close()
})

/** Counts the loads of one page's document. */
function countLoads(page: Page, path: string): () => number {
  let loads = 0
  page.on('request', (r) => { if (r.resourceType() === 'document' && r.url() === site.url(path)) loads += 1 })
  return () => loads
}

const guardGaveUp = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-chunk-failed')).catch(() => false)

test('when the runtime script fails to load, the page reloads once, and only once within 60 s; after 60 s it may again', async () => {
  const context = await isolatedContext(site, {}, [TAG_HOSTS])
  await stubTags(context)
  await context.route('**/assets/main.*.js', (route) => route.abort())
  const page = await context.newPage()
  const start = Date.now()
  await page.clock.install({ time: start })
  const loads = countLoads(page, '/contact/')
  await page.goto(site.url('/contact/'))
  await expect.poll(loads).toBe(2)
  await expect.poll(() => guardGaveUp(page)).toBe(true)
  expect(loads()).toBe(2)
  expect(await h1(page)).toBe('Contact us') // the server-rendered page stays usable

  await page.clock.setSystemTime(start + 61_000)
  await page.reload()
  await expect.poll(loads).toBe(4)
  await expect.poll(() => guardGaveUp(page)).toBe(true)
  expect(loads()).toBe(4)
  await context.close()
})

test('a code-split chunk that fails to load (the analytics chunk) reloads the page once too', async () => {
  const context = await isolatedContext(site, {}, [TAG_HOSTS])
  await stubTags(context)
  await context.route('**/assets/chunks/analytics.*.js', (route) => route.abort())
  const page = await context.newPage()
  const loads = countLoads(page, '/')
  await page.goto(site.url('/'))
  await expect.poll(loads).toBe(2)
  await expect.poll(() => guardGaveUp(page)).toBe(true)
  expect(loads()).toBe(2)
  await context.close()
})

/**
 * The page's clock installed and paused before the page loads, ten seconds ahead of where it
 * was installed: a clock runs while the call to pause it travels, and pausing at a time it has
 * passed is refused ("Cannot fast-forward to the past"), as a loaded CI machine showed.
 */
async function pausedClock(page: Page): Promise<void> {
  const start = Date.now()
  await page.clock.install({ time: start })
  await page.clock.pauseAt(start + 10_000)
}

test('an island chunk that has not arrived 120 s after the page started reloads the page', async () => {
  const context = await isolatedContext(site, {}, [TAG_HOSTS])
  await stubTags(context)
  let held = false
  await context.route('**/assets/chunks/carousel.*.js', (route) => { if (held) return route.continue(); held = true }) // the first never answers
  const page = await context.newPage()
  await pausedClock(page)
  const loads = countLoads(page, '/')
  await page.goto(site.url('/'))
  await untilOnPausedClock(page, async () => held)
  await page.clock.runFor(119_000)
  expect(loads()).toBe(1)
  await page.clock.runFor(1_000)
  await expect.poll(loads).toBe(2)
  await untilOnPausedClock(page, () => page.locator('[data-island="carousel"]').evaluate((el) => el.hasAttribute('data-island-ready')).catch(() => false))
  await context.close()
})

test('a runtime script that has not arrived after 120 s reloads the page', async () => {
  const context = await isolatedContext(site, {}, [TAG_HOSTS])
  await stubTags(context)
  let held = false
  await context.route('**/assets/main.*.js', (route) => { if (held) return route.continue(); held = true }) // the first never answers
  const page = await context.newPage()
  await pausedClock(page)
  const loads = countLoads(page, '/')
  await page.goto(site.url('/'), { waitUntil: 'commit' })
  await expect.poll(() => held).toBe(true)
  await page.clock.runFor(119_000)
  expect(loads()).toBe(1)
  await page.clock.runFor(1_000)
  await expect.poll(loads).toBe(2)
  await expect.poll(() => page.evaluate(() => document.documentElement.hasAttribute('data-runtime')).catch(() => false)).toBe(true)
  await context.close()
})
