/**
 * The runtime's page navigation in Chromium against the built site: links open pages in place,
 * history and scroll positions, anchors, the clicks left to the browser, focus and announcements,
 * aborting, and falling back to normal page loads.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { BrowserContext, Page, Route } from 'playwright-core'
import { addLink, headTags, isolatedContext, isSameDocument, markDocument, startSite, type Site } from '../../support/runtime.ts'

let site: Site
let context: BrowserContext
beforeAll(async () => { site = await startSite() })
afterAll(async () => { await site?.close() })

async function open(path: string, options = {}): Promise<Page> {
  context = await isolatedContext(site, options)
  const page = await context.newPage()
  await page.goto(site.url(path))
  return page
}

const h1 = (page: Page) => page.locator('main h1').textContent()
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY))

test('a link opens the page in place: address, title, head tags, language and one history entry', async () => {
  const page = await open('/')
  const fetched: string[] = []
  page.on('request', (r) => { if (r.resourceType() === 'fetch') fetched.push(new URL(r.url()).pathname) })
  await markDocument(page)
  const before = await page.evaluate(() => history.length)
  await page.locator('#site-nav a[href="/services/"]').click()
  await expect.poll(() => h1(page)).toBe('Services')
  expect(page.url()).toBe(site.url('/services/'))
  expect(await isSameDocument(page)).toBe(true)
  expect(fetched).toEqual(['/services/'])
  expect(await page.evaluate(() => history.length)).toBe(before + 1)

  const direct = await context.newPage()
  await direct.goto(site.url('/services/'))
  expect(await headTags(page)).toEqual(await headTags(direct))
  expect(await page.title()).toBe(await direct.title())
  expect(await page.locator('.language-switcher a').getAttribute('href')).toBe('/cn/services/')
  await context.close()
})

test('focus moves to the new main content, the title is announced politely, the navigation marks the current page', async () => {
  const page = await open('/contact/')
  await page.locator('#site-nav a[href="/services/"]').click()
  await expect.poll(() => h1(page)).toBe('Services')
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
  const region = page.locator('body > [aria-live="polite"]')
  await expect.poll(() => region.textContent()).toBe(await page.title())
  expect(await page.locator('#site-nav a[href="/services/"]').getAttribute('aria-current')).toBe('page')
  expect(await page.locator('#site-nav a[href="/contact/"]').getAttribute('aria-current')).toBeNull()
  await context.close()
})

test('Back and Forward swap the pages back and restore the scroll positions the visitor left', async () => {
  const page = await open('/services/', { viewport: { width: 1000, height: 600 } })
  await markDocument(page)
  const card = page.locator('main a[href="/services/rhinoplasty/"]').first()
  await card.scrollIntoViewIfNeeded()
  await page.evaluate(() => window.scrollBy(0, 150))
  const left = await scrollY(page)
  expect(left).toBeGreaterThan(100)
  await card.click()
  await expect.poll(() => h1(page)).toBe('Rhinoplasty')
  expect(await scrollY(page)).toBe(0)

  await page.evaluate(() => window.scrollTo(0, 700))
  await expect.poll(() => page.evaluate(() => history.state?.scroll?.y)).toBe(700)
  await page.goBack()
  await expect.poll(() => h1(page)).toBe('Services')
  await expect.poll(() => scrollY(page)).toBe(left)
  expect(page.url()).toBe(site.url('/services/'))

  await page.goForward()
  await expect.poll(() => h1(page)).toBe('Rhinoplasty')
  await expect.poll(() => scrollY(page)).toBe(700)
  expect(await isSameDocument(page)).toBe(true)
  await context.close()
})

test('a link with an anchor opens the page at the anchor, below its scroll margin', async () => {
  const page = await open('/services/', { viewport: { width: 1000, height: 600 } })
  await (await addLink(page, '/services/rhinoplasty/#the-consultation')).click()
  await expect.poll(() => h1(page)).toBe('Rhinoplasty')
  expect(page.url()).toBe(site.url('/services/rhinoplasty/#the-consultation'))
  const offset = () => page.evaluate(() => {
    const target = document.getElementById('the-consultation')!
    const margin = parseFloat(getComputedStyle(target).scrollMarginTop) + parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)
    // Within half a pixel (layout positions are fractional); `|| 0` turns -0 into 0.
    return Math.round(target.getBoundingClientRect().top - margin) || 0
  })
  await expect.poll(offset).toBe(0)
  expect(await scrollY(page)).toBeGreaterThan(0)
  await context.close()
})

test('anchors on the page on screen are the browser\'s: no fetch, and clicking the same anchor again scrolls again', async () => {
  const page = await open('/services/rhinoplasty/', { viewport: { width: 1000, height: 600 } })
  await markDocument(page)
  const fetched: string[] = []
  page.on('request', (r) => { if (r.resourceType() === 'fetch') fetched.push(r.url()) })
  const anchor = await addLink(page, '#risks-and-possible-complications')
  const top = () => page.evaluate(() => Math.round(document.getElementById('risks-and-possible-complications')!.getBoundingClientRect().top))
  await anchor.click()
  await expect.poll(() => page.url()).toBe(site.url('/services/rhinoplasty/#risks-and-possible-complications'))
  await expect.poll(top).toBeLessThan(100)
  const atAnchor = await top()
  await page.evaluate(() => window.scrollTo(0, 0))
  await anchor.click()
  await expect.poll(top).toBe(atAnchor)
  // Back from the anchor: the same page, at the top where it was.
  await page.goBack()
  await expect.poll(() => page.url()).toBe(site.url('/services/rhinoplasty/'))
  await expect.poll(() => scrollY(page)).toBe(0)
  expect(fetched).toEqual([])
  expect(await isSameDocument(page)).toBe(true)
  await context.close()
})

test('modifier and middle clicks open a new tab and leave the page alone', async () => {
  const page = await open('/')
  const fetched: string[] = []
  page.on('request', (r) => { if (r.resourceType() === 'fetch') fetched.push(r.url()) })
  const link = page.locator('#site-nav a[href="/contact/"]')
  for (const click of [() => link.click({ modifiers: ['ControlOrMeta'] }), () => link.click({ modifiers: ['Shift'] }), () => link.click({ button: 'middle' })]) {
    const [opened] = await Promise.all([context.waitForEvent('page'), click()])
    await opened.waitForLoadState()
    expect(opened.url()).toBe(site.url('/contact/'))
    await opened.close()
  }
  expect(page.url()).toBe(site.url('/'))
  expect(fetched).toEqual([])
  await context.close()
})

test('the runtime takes plain clicks on page links only: targets, downloads, other origins, mailto, tel, files and the language switcher are left alone', async () => {
  const page = await open('/')
  await page.route('**/contact/', () => {}) // the pages the runtime takes never arrive: the test page stays
  // A listener after the runtime's records whether it took the click, then stops the browser from following it.
  await page.evaluate(() => {
    const w = window as unknown as { taken: boolean[] }
    w.taken = []
    window.addEventListener('click', (event) => { w.taken.push(event.defaultPrevented); event.preventDefault() })
  })
  const cases: Array<[string, Record<string, string>, boolean]> = [
    ['/contact/', {}, true],
    ['/contact/', { target: '_self' }, true],
    ['/contact/', { target: '_blank' }, false],
    ['/contact/', { download: '' }, false],
    ['/contact/', { 'data-reload': '' }, false],
    ['https://example.org/', {}, false],
    ['mailto:someone@example.org', {}, false],
    ['tel:+6561002030', {}, false],
    ['/sitemap.xml', {}, false],
    ['/favicon.svg', {}, false],
  ]
  for (const [href, attributes, taken] of cases) {
    const link = await addLink(page, href, attributes)
    await link.evaluate((a: HTMLAnchorElement) => a.click())
    const last = await page.evaluate(() => (window as unknown as { taken: boolean[] }).taken.at(-1))
    expect({ href, attributes, taken: last }).toEqual({ href, attributes, taken })
  }
  await page.locator('.language-switcher a').evaluate((a: HTMLAnchorElement) => a.click())
  expect(await page.evaluate(() => (window as unknown as { taken: boolean[] }).taken.at(-1))).toBe(false)
  await context.close()
})

test('a navigation started while another is loading wins; the first answer is dropped', async () => {
  const page = await open('/')
  let held: Route | undefined
  await page.route('**/contact/', (route) => { if (route.request().resourceType() === 'fetch') held = route; else void route.continue() })
  await page.locator('#site-nav a[href="/contact/"]').click()
  await expect.poll(() => held).toBeDefined()
  await page.locator('#site-nav a[href="/services/"]').click()
  await expect.poll(() => h1(page)).toBe('Services')
  await held!.continue().catch(() => {}) // aborted by the page already
  await page.evaluate(() => new Promise((done) => setTimeout(done, 50)))
  expect(page.url()).toBe(site.url('/services/'))
  expect(await h1(page)).toBe('Services')
  await context.close()
})

test('a fetch that fails, or an answer that is not HTML, falls back to a normal page load', async () => {
  const page = await open('/')
  await page.route('**/contact/', (route) => route.request().resourceType() === 'fetch' ? route.abort() : route.continue())
  await page.route('**/privacy/', (route) => route.request().resourceType() === 'fetch'
    ? route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }) : route.continue())
  await markDocument(page)
  await page.locator('#site-nav a[href="/contact/"]').click()
  await page.waitForURL(site.url('/contact/'))
  await expect.poll(() => h1(page)).toBe('Contact us')
  expect(await isSameDocument(page)).toBe(false)

  await markDocument(page)
  await page.locator('footer a[href="/privacy/"]').click()
  await page.waitForURL(site.url('/privacy/'))
  await expect.poll(() => isSameDocument(page)).toBe(false)
  await context.close()
})

test('history restoration is manual while the runtime runs; a reload restores natively', async () => {
  const page = await open('/services/', { viewport: { width: 1000, height: 600 } })
  expect(await page.evaluate(() => history.scrollRestoration)).toBe('manual')
  await page.evaluate(() => window.scrollTo(0, 500))
  // Native restoration is Chromium's own: it restores to an anchor element, and on a loaded
  // machine the layout can settle elsewhere (CI has seen 118 px, and the block in view one line
  // further on). What the runtime owns is handing restoration back on leaving, so the test holds
  // the reload to what the visitor saw: the block that was first in view is still near where it
  // was, within a quarter of the viewport, not at the top of the page.
  const blockTop = (index: number) => page.evaluate((index) => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const block = document.querySelectorAll('main :is(h1, h2, h3, p, li)')[index]
    done(Math.round(block?.getBoundingClientRect().top ?? Number.NaN))
  }))), index)
  const firstInView = await page.evaluate(() => [...document.querySelectorAll('main :is(h1, h2, h3, p, li)')]
    .findIndex((block) => block.getBoundingClientRect().top >= 0))
  expect(firstInView).toBeGreaterThan(0)
  const before = await blockTop(firstInView)
  await page.evaluate(() => addEventListener('pagehide', () => sessionStorage.setItem('restoration', history.scrollRestoration)))
  await page.reload()
  expect(await page.evaluate(() => sessionStorage.getItem('restoration'))).toBe('auto')
  await expect.poll(async () => Math.abs((await blockTop(firstInView)) - before)).toBeLessThanOrEqual(600 / 4)
  expect(await scrollY(page)).toBeGreaterThan(0)
  await context.close()
})

test('islands of the outgoing page are torn down and those of the incoming page started', async () => {
  const page = await open('/')
  const cdp = await context.newCDPSession(page)
  /** The window's `pageshow` listeners, counted by the browser (the contact form island adds one). */
  const pageshowListeners = async () => {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' })
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! })
    return listeners.filter((l) => l.type === 'pageshow').length
  }
  const before = await pageshowListeners()
  await page.locator('#site-nav a[href="/contact/"]').click()
  await expect.poll(() => page.evaluate(() => document.querySelector('form')?.noValidate)).toBe(true) // the form island runs
  expect(await pageshowListeners()).toBe(before + 1)
  await page.locator('#site-nav a[href="/services/"]').click()
  await expect.poll(() => h1(page)).toBe('Services')
  expect(await pageshowListeners()).toBe(before)
  await context.close()
})

test('the menu works on small screens after a navigation, and closes with the page it was opened on', async () => {
  const page = await open('/', { viewport: { width: 375, height: 700 } })
  const button = page.locator('.menu-button')
  await button.click()
  expect(await button.getAttribute('aria-expanded')).toBe('true')
  await page.locator('#site-nav a[href="/contact/"]').click()
  await expect.poll(() => h1(page)).toBe('Contact us')
  expect(await button.getAttribute('aria-expanded')).toBe('false')
  expect(await page.locator('#site-nav a[href="/services/"]').isVisible()).toBe(false)
  await button.click()
  expect(await page.locator('#site-nav a[href="/services/"]').isVisible()).toBe(true)
  await page.keyboard.press('Escape')
  expect(await button.getAttribute('aria-expanded')).toBe('false')
  await context.close()
})
