/**
 * The shared elements at work in Chromium, driven from the keyboard as the WAI-ARIA Authoring
 * Practices describe: the menus, the FAQ accordion, the service tabs, the carousel's controls;
 * and the language switcher, the map on demand, "open now" and back-to-top.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { islandsReady, openSite, PAGE_TYPES, type Site } from '../support/design-pages.ts'

let site: Site
let desktop: Page
let phone: Page
beforeAll(async () => {
  site = await openSite()
  desktop = await site.open('/')
  phone = await site.open('/', { viewport: { width: 375, height: 800 } })
})
afterAll(() => site?.close())

async function visit(page: Page, url: string) {
  await page.goto(site.url + url)
  await islandsReady(page)
}
const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement!
  return el.id || el.className || el.tagName
})
/** Presses Tab until `selector` has focus (at most 40 times), as a keyboard user gets there. */
async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${selector}`)
}

describe('the header', () => {
  test('on a phone the menu button opens and closes the navigation from the keyboard', async () => {
    await visit(phone, '/services/')
    const button = phone.locator('.menu-button')
    const nav = phone.locator('#site-nav')
    await expect.poll(() => nav.isVisible()).toBe(false)
    await tabTo(phone, '.menu-button')
    await phone.keyboard.press('Enter')
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => nav.isVisible()).toBe(true)
    await phone.keyboard.press('Tab')
    expect(await phone.evaluate(() => document.activeElement?.textContent)).toBe('Services')
    await phone.keyboard.press('Escape')
    expect(await button.getAttribute('aria-expanded')).toBe('false')
    expect(await focused(phone)).toBe('menu-button')
    await expect.poll(() => nav.isVisible()).toBe(false)
    await phone.keyboard.press(' ')
    await expect.poll(() => nav.isVisible()).toBe(true)
  })

  test('the list of services opens from its button and closes with Escape, returning focus', async () => {
    await visit(desktop, '/')
    const submenu = desktop.locator('#nav-services')
    expect(await submenu.isVisible()).toBe(false)
    await tabTo(desktop, '.submenu-button')
    await desktop.keyboard.press('Enter')
    await expect.poll(() => submenu.isVisible()).toBe(true)
    await desktop.keyboard.press('Tab')
    expect(await desktop.evaluate(() => document.activeElement?.closest('#nav-services') !== null)).toBe(true)
    await desktop.keyboard.press('Escape')
    await expect.poll(() => submenu.isVisible()).toBe(false)
    expect(await focused(desktop)).toBe('submenu-button')
  })

  test('without JavaScript the navigation is a plain visible list and no menu button shows', async () => {
    const page = await site.open('/services/', { javaScriptEnabled: false, viewport: { width: 375, height: 800 } })
    expect(await page.locator('#site-nav').isVisible()).toBe(true)
    expect(await page.locator('.menu-button').isVisible()).toBe(false)
    await page.context().close()
  })

  const switcherTargets: Record<string, string> = {
    '/': '/cn/', '/services/rhinoplasty/': '/cn/services/rhinoplasty/', '/dr-evelyn-quah/': '/cn/dr-evelyn-quah/',
    '/contact/': '/cn/contact/', '/privacy/': '/cn/privacy/', '/blog/': '/cn/', '/blog/how-to-prepare-for-a-rhinoplasty/': '/cn/',
    '/cn/': '/', '/cn/services/': '/services/', '/cn/thank-you/': '/thank-you/', '/cn/404.html': '/',
  }
  test.each(Object.entries(switcherTargets))('the language switcher on %s leads to %s, in the other language', async (from, to) => {
    await desktop.goto(site.url + from)
    const link = desktop.locator('.language-switcher a')
    expect(await link.getAttribute('href')).toBe(to)
    await Promise.all([desktop.waitForURL(site.url + to), link.click()])
    expect(await desktop.getAttribute('html', 'lang')).toBe(from.startsWith('/cn/') ? 'en' : 'zh')
  })
})

describe('the FAQ accordion', () => {
  const triggers = (page: Page) => page.locator('.accordion__trigger')

  test('starts closed; Enter and Space toggle a question; arrows, Home and End move between questions', async () => {
    await visit(desktop, '/services/rhinoplasty/#frequently-asked-questions')
    const count = await triggers(desktop).count()
    expect(count).toBeGreaterThanOrEqual(5)
    const first = triggers(desktop).first()
    const answer = desktop.locator(`#${await first.getAttribute('aria-controls')}`)
    expect(await first.getAttribute('aria-expanded')).toBe('false')
    expect(await answer.isVisible()).toBe(false)
    expect(await answer.getAttribute('role')).toBe('region')
    await first.focus()
    await desktop.keyboard.press('Enter')
    expect(await first.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => answer.isVisible()).toBe(true)
    await desktop.keyboard.press(' ')
    expect(await first.getAttribute('aria-expanded')).toBe('false')
    await desktop.keyboard.press('ArrowDown')
    expect(await desktop.evaluate(() => document.activeElement?.id)).toBe(await triggers(desktop).nth(1).getAttribute('id'))
    await desktop.keyboard.press('End')
    expect(await desktop.evaluate(() => document.activeElement?.id)).toBe(await triggers(desktop).last().getAttribute('id'))
    await desktop.keyboard.press('ArrowDown')
    expect(await desktop.evaluate(() => document.activeElement?.id)).toBe(await first.getAttribute('id'))
    await desktop.keyboard.press('ArrowUp')
    expect(await desktop.evaluate(() => document.activeElement?.id)).toBe(await triggers(desktop).last().getAttribute('id'))
    await desktop.keyboard.press('Home')
    expect(await desktop.evaluate(() => document.activeElement?.id)).toBe(await first.getAttribute('id'))
  })

  test('without JavaScript every question and answer is shown', async () => {
    const page = await site.open('/cn/services/rhinoplasty/', { javaScriptEnabled: false })
    const answers = page.locator('.accordion__panel')
    expect(await answers.count()).toBeGreaterThanOrEqual(5)
    for (const answer of await answers.all()) expect(await answer.isVisible()).toBe(true)
    await page.context().close()
  })
})

describe('the service tabs', () => {
  const selected = (page: Page) => page.locator('[role="tab"][aria-selected="true"]').textContent()
  const visiblePanels = (page: Page) => page.$$eval('[role="tabpanel"]', (panels) => panels.filter((p) => (p as HTMLElement).offsetHeight > 0 && !p.hasAttribute('hidden')).map((p) => p.id))

  test('arrow keys, Home and End choose a tab and show only its section; Tab moves on into the section', async () => {
    await visit(desktop, '/services/rhinoplasty/')
    const tabs = desktop.locator('[role="tab"]')
    expect(await tabs.count()).toBe(7)
    expect(await desktop.locator('[role="tablist"]').getAttribute('aria-label')).toBe('Sections of this page')
    expect(await selected(desktop)).toBe('What it is')
    expect(await visiblePanels(desktop)).toEqual(['what-it-is'])
    await tabTo(desktop, '[role="tab"][aria-selected="true"]')
    await desktop.keyboard.press('ArrowRight')
    expect(await selected(desktop)).toBe('Who it may suit')
    expect(await visiblePanels(desktop)).toEqual(['who-it-may-suit'])
    expect(await desktop.evaluate(() => document.activeElement?.getAttribute('aria-selected'))).toBe('true')
    await desktop.keyboard.press('End')
    expect(await selected(desktop)).toBe('Frequently asked questions')
    await desktop.keyboard.press('ArrowRight')
    expect(await selected(desktop)).toBe('What it is')
    await desktop.keyboard.press('ArrowLeft')
    expect(await selected(desktop)).toBe('Frequently asked questions')
    await desktop.keyboard.press('Home')
    expect(await selected(desktop)).toBe('What it is')
    expect(await tabs.nth(1).getAttribute('tabindex')).toBe('-1')
    await desktop.keyboard.press('Tab')
    expect(await desktop.evaluate(() => document.activeElement?.id)).toBe('what-it-is')
  })

  test('an address naming a section opens its tab', async () => {
    await visit(desktop, '/cn/services/rhinoplasty/#恢复与护理')
    expect(await selected(desktop)).toBe('恢复与护理')
    expect(await visiblePanels(desktop)).toEqual(['恢复与护理'])
  })

  test('without JavaScript every section is shown after a list of links to them', async () => {
    const page = await site.open('/services/rhinoplasty/', { javaScriptEnabled: false })
    expect(await page.locator('[role="tab"]').count()).toBe(0)
    expect(await page.locator('.tabs__list a').count()).toBe(7)
    for (const section of await page.locator('.tabs__panel').all()) expect(await section.isVisible()).toBe(true)
    await page.context().close()
  })
})

describe('the carousel controls', () => {
  test('the rotation button comes first in Tab order, and focus on it stops the rotation', async () => {
    // A page of its own: nothing earlier tests did to the shared page can touch the rotation.
    const desktop = await site.open('/')
    await islandsReady(desktop)
    await desktop.mouse.move(0, 0)
    const carousel = desktop.locator('.carousel')
    await tabTo(desktop, '.carousel *')
    expect(await focused(desktop)).toBe('carousel__rotation')
    expect(await carousel.getAttribute('data-state')).toBe('stopped')
    expect(await desktop.locator('.carousel__rotation').textContent()).toBe('Start automatic slide show')
    // Rotation ran in real time until focus arrived: count from where it stopped.
    const from = Number(await carousel.getAttribute('data-index'))
    await desktop.keyboard.press('Tab')
    expect(await focused(desktop)).toBe('carousel__prev')
    await desktop.keyboard.press('Tab')
    expect(await focused(desktop)).toBe('carousel__next')
    await desktop.keyboard.press('Enter')
    expect(await carousel.getAttribute('data-index')).toBe(String(from === 8 ? 0 : from + 1))
    expect(await focused(desktop)).toBe('carousel__next')
    await desktop.keyboard.press('Shift+Tab')
    await desktop.keyboard.press('Enter')
    expect(await carousel.getAttribute('data-index')).toBe(String(from))
    await desktop.keyboard.press('Shift+Tab')
    await desktop.keyboard.press(' ')
    expect(await carousel.getAttribute('data-state')).toBe('playing')
    expect(await desktop.locator('.carousel__rotation').textContent()).toBe('Stop automatic slide show')
    await desktop.context().close()
  })

  test('follows the carousel pattern: labelled region, slides as labelled groups, only visible slides reachable', async () => {
    await visit(desktop, '/cn/')
    const carousel = desktop.locator('.carousel')
    expect(await carousel.getAttribute('aria-roledescription')).toBe('轮播')
    expect(await carousel.getAttribute('aria-label')).toBe('服务项目')
    const slides = desktop.locator('.carousel__slide')
    expect(await slides.first().getAttribute('role')).toBe('group')
    expect(await slides.first().getAttribute('aria-roledescription')).toBe('幻灯片')
    expect(await slides.nth(2).getAttribute('aria-label')).toBe('第 3 项，共 10 项')
    expect(await desktop.$$eval('.carousel__slide', (all) => all.map((s) => (s as HTMLElement).inert))).toEqual([false, false, true, true, true, true, true, true, true, true])
  })
})

describe('the map', () => {
  test('loads no third-party frame until asked, then shows a lazy, titled frame', async () => {
    const requests: string[] = []
    const page = await site.open('/contact/', { beforeGoto: async (p) => { p.on('request', (r) => requests.push(r.url())) } })
    await islandsReady(page)
    expect(await page.locator('.map iframe').count()).toBe(0)
    expect(requests.filter((u) => u.includes('google.com/maps'))).toEqual([])
    const link = page.locator('.map__caption a')
    expect(await link.getAttribute('target')).toBe('_blank')
    expect(await link.getAttribute('href')).toBe('https://www.google.com/maps/search/?api=1&query=1.3041,103.8328')
    await page.getByRole('button', { name: 'Show map' }).press('Enter')
    const frame = page.locator('.map iframe')
    expect(await frame.getAttribute('loading')).toBe('lazy')
    expect(await frame.getAttribute('src')).toBe('https://www.google.com/maps?q=1.3041,103.8328&z=16&output=embed')
    expect(await frame.getAttribute('title')).toBe("Map of the clinic's location")
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME')
    await page.context().close()
  })
})

describe('the opening hours', () => {
  /** A visitor in New York at a given instant: the clinic's hours still follow Singapore time. */
  async function hoursAt(iso: string, path = '/contact/') {
    const page = await site.open(path, { timezoneId: 'America/New_York', beforeGoto: (p) => p.clock.install({ time: new Date(iso) }) })
    await islandsReady(page)
    const hours = page.locator('.sidebar .opening-hours')
    await hours.scrollIntoViewIfNeeded()
    await hours.locator('.opening-hours__now:not([hidden])').waitFor()
    const result = await hours.evaluate((el) => ({
      now: el.querySelector('.opening-hours__now')!.textContent,
      today: el.querySelector('tr.is-today th')?.textContent,
    }))
    await page.context().close()
    return result
  }

  test('show "open now" during opening hours in Singapore', async () => {
    // Monday 10:00 in Singapore is Sunday 21:00 in New York.
    expect(await hoursAt('2026-11-23T02:00:00Z')).toEqual({ now: 'Open now, until 18:00', today: 'Monday' })
    expect(await hoursAt('2026-11-28T04:59:00Z', '/cn/contact/')).toEqual({ now: '营业中，13:00 结束', today: '星期六' })
  })

  test('show when the clinic opens next while it is closed', async () => {
    expect(await hoursAt('2026-11-28T05:00:00Z')).toEqual({ now: 'Closed now. Opens Monday at 09:00.', today: 'Saturday' })
    expect(await hoursAt('2026-11-24T00:30:00Z')).toEqual({ now: 'Closed now. Opens today at 09:00.', today: 'Tuesday' })
    expect(await hoursAt('2026-11-22T04:00:00Z', '/cn/contact/')).toEqual({ now: '现在休息，星期一 09:00 开始营业。', today: '星期日' })
  })

  test('work out the status only when the hours come near the viewport (time-zone data is slow to load)', async () => {
    const page = await site.open('/blog/', { viewport: { width: 375, height: 700 } })
    await islandsReady(page)
    const status = page.locator('footer .opening-hours__now')
    await page.waitForTimeout(300)
    expect(await status.isVisible()).toBe(false)
    await page.locator('footer .opening-hours').scrollIntoViewIfNeeded()
    await expect.poll(() => status.textContent()).toMatch(/^(Open now|Closed now)/)
    await page.context().close()
  })

  test('the static page lists the whole week', async () => {
    const page = await site.open('/contact/', { javaScriptEnabled: false })
    const rows = await page.locator('.sidebar .opening-hours tr').allTextContents()
    expect(rows).toEqual(['Monday09:00–18:00', 'Tuesday09:00–18:00', 'Wednesday09:00–18:00', 'Thursday09:00–18:00', 'Friday09:00–18:00', 'Saturday09:00–13:00', 'SundayClosed'])
    expect(await page.locator('.opening-hours__now').first().isVisible()).toBe(false)
    await page.context().close()
  })
})

describe('back to top', () => {
  test('appears after a screen of scrolling, and takes a keyboard user back to the top and the skip link', async () => {
    const page = await site.open('/services/rhinoplasty/', { viewport: { width: 375, height: 700 }, reducedMotion: 'reduce' })
    await islandsReady(page)
    const button = page.locator('.to-top')
    expect(await button.isVisible()).toBe(false)
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await expect.poll(() => button.isVisible()).toBe(true)
    await button.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
    expect(await focused(page)).toBe('skip-link')
    expect(page.url()).not.toContain('#')
    await page.context().close()
  })
})

test('every page type runs its islands without a script error', async () => {
  const errors: string[] = []
  desktop.on('pageerror', (e) => errors.push(`${desktop.url()}: ${e.message}`))
  for (const { url } of PAGE_TYPES) await visit(desktop, url)
  expect(errors).toEqual([])
})
