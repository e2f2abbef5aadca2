/**
 * The home page carousel's timing and pause rules, in Chromium with the page's clock under the
 * test's control (page.clock): a 500 ms slide, 2 slides per view (1 below 768 px), an advance
 * 2000 ms after each slide has finished moving, a rewind after the last, and the rules that stop
 * or hold the rotation. The slide itself is a Web Animation; the test finishes it instead of
 * waiting for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { untilOnPausedClock } from '../support/browser.ts'
import { openSite, type Site } from '../support/design-pages.ts'

let site: Site
beforeAll(async () => { site = await openSite() })
afterAll(() => site?.close())

async function home(options: Parameters<Site['open']>[1] = {}): Promise<Page> {
  // The page's clock stands still from the start: only runFor moves it.
  const page = await site.open('/', {
    ...options,
    beforeGoto: async (p) => {
      await p.clock.install({ time: new Date('2026-11-23T02:00:00Z') })
      await p.clock.pauseAt(new Date('2026-11-23T02:00:01Z'))
    },
  })
  await untilOnPausedClock(page, () => page.locator('.carousel').evaluate((el) => el.hasAttribute('data-island-ready')))
  // Animations stand still too (the timeline of the page plays at rate 0), so a slide ends only
  // when a test finishes it, however slow the machine.
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('Animation.enable')
  await devtools.send('Animation.setPlaybackRate', { playbackRate: 0 })
  // Keep the pointer away from the carousel unless a test moves it there.
  await page.mouse.move(0, 0)
  return page
}
const index = (page: Page) => page.locator('.carousel').getAttribute('data-index').then(Number)
const state = (page: Page) => page.locator('.carousel').getAttribute('data-state')
const moving = (page: Page) => page.locator('.carousel').evaluate((el) => el.hasAttribute('data-moving'))
const inView = (page: Page) => page.$$eval('.carousel__slide', (slides) => slides.flatMap((s, i) => ((s as HTMLElement).inert ? [] : [i])))

/** Ends the running slide at once, as if 500 ms had passed, and waits for the carousel to notice. */
async function finishSlide(page: Page) {
  await page.locator('.carousel__track').evaluate((track) => { for (const a of track.getAnimations()) a.finish() })
  await expect.poll(() => moving(page)).toBe(false)
}

describe('rotation', () => {
  test('slides for 500 ms, then advances 2000 ms after the slide has ended, two slides per view', async () => {
    const page = await home()
    expect(await state(page)).toBe('playing')
    expect(await inView(page)).toEqual([0, 1])
    await page.clock.runFor(1999)
    expect(await index(page)).toBe(0)
    await page.clock.runFor(1)
    expect(await index(page)).toBe(1)
    expect(await inView(page)).toEqual([1, 2])
    const timing = await page.locator('.carousel__track').evaluate((track) => track.getAnimations().map((a) => a.effect!.getTiming().duration))
    expect(timing).toEqual([500])
    // 300 ms into the slide the wait for the next advance has not started yet.
    await page.clock.runFor(300)
    expect(await moving(page)).toBe(true)
    await finishSlide(page)
    await page.clock.runFor(1999)
    expect(await index(page)).toBe(1)
    await page.clock.runFor(1)
    expect(await index(page)).toBe(2)
    await page.context().close()
  })

  test('rewinds to the first slide after the last pair', async () => {
    const page = await home()
    const seen: number[] = []
    for (let step = 0; step < 9; step++) {
      await page.clock.runFor(2000)
      seen.push(await index(page))
      await finishSlide(page)
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0])
    await page.context().close()
  })

  test('shows one slide per view below 768 px and two from 768 px', async () => {
    const narrow = await home({ viewport: { width: 767, height: 900 } })
    expect(await inView(narrow)).toEqual([0])
    await narrow.setViewportSize({ width: 768, height: 900 })
    await expect.poll(() => inView(narrow)).toEqual([0, 1])
    await narrow.context().close()
  })
})

describe('what stops or holds it', () => {
  test('holds while the pointer is over it and goes on when it leaves', async () => {
    const page = await home()
    await page.locator('.carousel__viewport').hover()
    await page.clock.runFor(6000)
    expect(await index(page)).toBe(0)
    expect(await state(page)).toBe('playing')
    await page.mouse.move(0, 0)
    await page.clock.runFor(2000)
    expect(await index(page)).toBe(1)
    await page.context().close()
  })

  test('stops for good after the visitor moves it, until the rotation button starts it again', async () => {
    const page = await home()
    await page.locator('.carousel__next').click()
    expect(await index(page)).toBe(1)
    expect(await state(page)).toBe('stopped')
    await finishSlide(page)
    await page.mouse.move(0, 0)
    await page.clock.runFor(10_000)
    expect(await index(page)).toBe(1)
    expect(await page.locator('.carousel__track').getAttribute('aria-live')).toBe('polite')
    await page.locator('.carousel__rotation').click()
    await page.mouse.move(0, 0)
    expect(await state(page)).toBe('playing')
    expect(await page.locator('.carousel__track').getAttribute('aria-live')).toBe('off')
    await page.clock.runFor(2000)
    expect(await index(page)).toBe(2)
    await page.context().close()
  })

  test('stops when keyboard focus enters it', async () => {
    const page = await home()
    // Tab from the link just before the carousel, as a keyboard user arrives.
    await page.locator('.prose--intro a').last().focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement!.className)).toBe('carousel__rotation')
    expect(await state(page)).toBe('stopped')
    await page.clock.runFor(10_000)
    expect(await index(page)).toBe(0)
    await page.context().close()
  })

  test('never starts under prefers-reduced-motion', async () => {
    const page = await home({ reducedMotion: 'reduce' })
    expect(await state(page)).toBe('stopped')
    expect(await page.locator('.carousel__rotation').textContent()).toBe('Start automatic slide show')
    await page.clock.runFor(10_000)
    expect(await index(page)).toBe(0)
    await page.context().close()
  })

  test('holds while the tab is hidden and goes on when it is shown again', async () => {
    const page = await home()
    // Headless Chromium never hides a tab, so the test tells the page as the browser would.
    const setHidden = (hidden: boolean) => page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => h })
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') })
      document.dispatchEvent(new Event('visibilitychange'))
    }, hidden)
    await page.clock.runFor(1000)
    await setHidden(true)
    await page.clock.runFor(10_000)
    expect(await index(page)).toBe(0)
    await setHidden(false)
    await page.clock.runFor(1999)
    expect(await index(page)).toBe(0)
    await page.clock.runFor(1)
    expect(await index(page)).toBe(1)
    await page.context().close()
  })
})

test('without JavaScript the slides are a row that scrolls sideways, with no controls', async () => {
  const page = await site.open('/', { javaScriptEnabled: false, viewport: { width: 375, height: 800 } })
  const viewport = page.locator('.carousel__viewport')
  const row = await viewport.evaluate((el) => ({ overflow: getComputedStyle(el).overflowX, wider: el.scrollWidth > el.clientWidth }))
  expect(row).toEqual({ overflow: 'auto', wider: true })
  expect(await page.locator('.carousel__controls').isVisible()).toBe(false)
  await viewport.evaluate((el) => el.scrollBy(2000, 0))
  expect(await viewport.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
  await page.context().close()
})
