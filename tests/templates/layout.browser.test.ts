/**
 * Layout and media in Chromium: no page scrolls sideways at any width from 320 px, images carry
 * their sizes, alt text and loading hints, and the web fonts never block the page. (Markdown cannot
 * keep video, audio or frames: tests/templates/markup.test.ts; the map's frame: design-keyboard.)
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { islandsReady, offline, openSite, PAGE_TYPES, type Site } from '../support/design-pages.ts'

let site: Site
let page: Page
beforeAll(async () => {
  site = await openSite()
  page = await site.open('/')
})
afterAll(() => site?.close())

const WIDTHS = [320, 375, 768, 1024, 1366, 1920]

/** Elements reaching past the right edge of the window, and how far the page scrolls sideways. */
const overflow = (p: Page) => p.evaluate(() => {
  const width = document.documentElement.clientWidth
  const past = [...document.querySelectorAll('body *')].filter((el) => {
    const box = el.getBoundingClientRect()
    return box.width > 0 && box.right > width + 1 && !el.closest('.carousel__viewport, .tabs__tablist, .tabs__list')
  }).map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`)
  return { scroll: document.documentElement.scrollWidth - width, past: past.slice(0, 5) }
})

describe.each(WIDTHS)('at %i px wide', (width) => {
  test('no page type scrolls sideways, with the menus open where there are menus', async () => {
    await page.setViewportSize({ width, height: 900 })
    for (const { url } of PAGE_TYPES) {
      await page.goto(site.url + url)
      await islandsReady(page)
      expect(await overflow(page), url).toEqual({ scroll: 0, past: [] })
    }
    await page.goto(site.url + '/services/rhinoplasty/')
    await islandsReady(page)
    if (width < 1024) await page.locator('.menu-button').click()
    await page.locator('.submenu-button').click()
    expect(await overflow(page), 'menus open').toEqual({ scroll: 0, past: [] })
  })
})

test('without JavaScript no page scrolls sideways at 320 px either', async () => {
  const noScript = await site.open('/', { javaScriptEnabled: false, viewport: { width: 320, height: 800 } })
  for (const { url } of PAGE_TYPES) {
    await noScript.goto(site.url + url)
    expect(await overflow(noScript), url).toEqual({ scroll: 0, past: [] })
  }
  await noScript.context().close()
})

/**
 * The site behind a proxy that sends each HTML document in small pieces, as a slow connection
 * delivers it, so that the browser can paint a page it has only partly parsed.
 */
async function slowHtml(origin: string): Promise<{ url: string; close: () => void }> {
  const server = createServer(async (request, response) => {
    const upstream = await fetch(origin + request.url, { redirect: 'manual' })
    const body = Buffer.from(await upstream.arrayBuffer())
    const passed = [...upstream.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
    response.writeHead(upstream.status, Object.fromEntries(passed))
    if (!upstream.headers.get('content-type')?.startsWith('text/html')) return void response.end(body)
    for (let at = 0; at < body.length; at += 1024) {
      response.write(body.subarray(at, at + 1024))
      await sleep(20)
    }
    response.end()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

/** Run in the page before its own scripts: keeps every layout shift, with the elements it moved. */
function recordShifts() {
  const shifts: string[] = ((window as unknown as { shifts: string[] }).shifts = [])
  const named = (node: Node | undefined) => node instanceof Element ? node.className : node ? `text in ${node.parentElement?.tagName}` : '?'
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEntry[] & { value: number; sources: { node?: Node }[] }[]) {
      shifts.push(`${entry.value.toFixed(6)} ${entry.sources.map((s) => named(s.node)).join(', ')}`)
    }
  }).observe({ type: 'layout-shift', buffered: true })
}
const shiftsIn = (tab: Page) => tab.evaluate(() => (window as unknown as { shifts: string[] }).shifts)

describe.each([375, 1366])('at %i px wide, while the page and its scripts arrive', (width) => {
  test('nothing on any page type moves: no layout shift from the first paint until every island runs', async () => {
    const slow = await slowHtml(site.url)
    const context = await site.browser.newContext({ viewport: { width, height: 900 } })
    await offline(context)
    await context.addInitScript(recordShifts)
    const moved: string[] = []
    for (const { url } of PAGE_TYPES) {
      const tab = await context.newPage()
      await tab.goto(slow.url + url)
      await islandsReady(tab)
      await tab.waitForTimeout(300) // a frame or two after the last island started
      moved.push(...(await shiftsIn(tab)).map((s) => `${url}: ${s}`))
      await tab.close()
    }
    expect(moved).toEqual([])
    await context.close()
    slow.close()
  })
})

test('marking today in the opening hours moves nothing, whichever day it is', async () => {
  // The 404 pages are short enough for the footer's hours to be in view at 1366 × 900. Sunday's
  // row reads "Closed", right-aligned: a bolder face would widen it and move its start.
  const moved: string[] = []
  for (let day = 0; day < 14; day++) {
    const at = new Date(Date.UTC(2026, 10, 23 + (day % 7), 2)) // 10:00 in Singapore, from a Monday
    const tab = await site.open(day < 7 ? '/404.html' : '/cn/404.html', {
      beforeGoto: async (p) => { await p.clock.install({ time: at }); await p.addInitScript(recordShifts) },
    })
    await islandsReady(tab)
    await tab.locator('footer tr.is-today').waitFor()
    await tab.waitForTimeout(300) // the shift, if any, is reported a frame after it
    moved.push(...(await shiftsIn(tab)).map((s) => `${tab.url()} ${at.toISOString()}: ${s}`))
    await tab.context().close()
  }
  expect(moved).toEqual([])
})

describe('images and media', () => {
  test('every image has a size and alt text; only the hero loads eagerly, first', async () => {
    await page.setViewportSize({ width: 1366, height: 900 })
    for (const { url } of PAGE_TYPES) {
      await page.goto(site.url + url)
      await islandsReady(page)
      const images = await page.$$eval('img', (all) => all.map((img) => ({
        hero: img.closest('.banner__image') !== null,
        width: img.getAttribute('width'), height: img.getAttribute('height'), alt: img.hasAttribute('alt'),
        loading: img.getAttribute('loading'), priority: img.getAttribute('fetchpriority'),
      })))
      for (const image of images) {
        expect(image.width && image.height && image.alt, url).toBeTruthy()
        expect(image.hero ? [image.loading, image.priority] : [image.loading], url).toEqual(image.hero ? ['eager', 'high'] : ['lazy'])
      }
    }
    await page.goto(site.url + '/')
    expect(await page.locator('.banner__image img').count()).toBe(1)
    expect(await page.locator('.banner__image img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  })

  test('the site has a favicon and a home-screen icon that load', async () => {
    await page.goto(site.url + '/cn/')
    for (const selector of ['link[rel="icon"][type="image/svg+xml"]', 'link[rel="icon"][type="image/png"]', 'link[rel="apple-touch-icon"]']) {
      const href = await page.locator(selector).getAttribute('href')
      const response = await page.request.get(site.url + href)
      expect(response.ok(), selector).toBe(true)
      expect(response.headers()['content-type'], selector).toMatch(/^image\//)
    }
  })
})

describe('web fonts', () => {
  test('come from the configured service with font-display swap, with connections opened early', async () => {
    const requests: string[] = []
    const fonts = await site.open('/', { beforeGoto: async (p) => { p.on('request', (r) => requests.push(r.url())) } })
    const head = await fonts.evaluate(() => ({
      preconnect: [...document.querySelectorAll('link[rel="preconnect"]')].map((l) => `${l.getAttribute('href')} ${l.hasAttribute('crossorigin') ? 'cors' : 'no-cors'}`),
      stylesheet: [...document.querySelectorAll('link[data-web-fonts]')].map((l) => `${(l as HTMLLinkElement).media} ${l.getAttribute('href')?.includes('display=swap')}`),
      noscript: document.querySelector('head noscript')?.textContent?.includes('fonts.googleapis.com'),
    }))
    expect(head).toEqual({
      preconnect: ['https://fonts.googleapis.com no-cors', 'https://fonts.gstatic.com cors'],
      stylesheet: ['all true'], // switched on by the runtime
      noscript: true,
    })
    expect(requests.some((u) => u.startsWith('https://fonts.googleapis.com/css2'))).toBe(true)
    await fonts.context().close()
  })

  test('never hold back the first paint, even when the font service does not answer', async () => {
    const context = await site.browser.newContext()
    await offline(context)
    const page = await context.newPage()
    let held = false
    await page.route(/fonts\.googleapis\.com/, () => { held = true }) // never answered
    await page.goto(site.url + '/cn/', { waitUntil: 'commit' })
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length)).toBe(1)
    expect(held).toBe(true)
    expect(await page.locator('h1').isVisible()).toBe(true)
    await context.close()
  })

  test('fall back to faces with Chinese glyphs on Chinese pages', async () => {
    await page.goto(site.url + '/cn/')
    const families = await page.evaluate(() => [getComputedStyle(document.body).fontFamily, getComputedStyle(document.querySelector('h1')!).fontFamily])
    for (const family of families) expect(family).toMatch(/Noto Sans CJK SC|PingFang SC|Microsoft YaHei/)
  })
})
