/**
 * Scroll positions across history, in the three engines visitors use (Blink, Gecko, WebKit):
 * Back after a full page load (another site, the map, WhatsApp) lands where the visitor left,
 * as Back after a navigation in place, a reload (restored by the engine or else by the runtime)
 * and an anchor do. The runtime restores positions
 * itself while it runs and hands restoration back to the browser on leaving
 * (src/client/runtime/scroll.ts), and engines differ in what they then do.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildSite, serveFolder, type RunningServer } from '../../support/browser.ts'
import { ENGINES, engineForTests, settle, type EnginePage } from '../../support/engines.ts'

let server: RunningServer
beforeAll(async () => { server = await serveFolder(await buildSite()) }, 180_000)
afterAll(async () => { await server?.close() })

const WIDTH = 1000
const HEIGHT = 600
const CARD = 'main a[href="/services/rhinoplasty/"]'

describe.each(ENGINES)('%s', (name) => {
  const { tab } = engineForTests(name)
  let page!: EnginePage

  const open = async (path: string) => {
    page = await tab(WIDTH, HEIGHT)
    await page.goto(server.url + path)
  }
  const scrollY = () => page.run<number>('return Math.round(scrollY)')
  const h1 = () => page.run<string>('return document.querySelector("main h1").textContent')
  const path = () => page.run<string>('return location.pathname + location.hash')
  /** Scrolls to `y` and waits until the runtime has saved it in the history entry. */
  const scrollTo = async (y: number) => {
    await page.run('scrollTo(0, arguments[0])', y)
    expect(await settle(() => page.run<number | undefined>('return history.state && history.state.scroll && history.state.scroll.y'), (saved) => saved === y)).toBe(y)
  }

  test('Back after a full page load lands where the visitor left', async () => {
    await open('/services/rhinoplasty/')
    await scrollTo(1400)
    await page.goto(`${server.url}/contact/`)
    expect(await settle(h1, (t) => t === 'Contact us')).toBe('Contact us')
    // Called from a timer, so that the script has returned before its document is left.
    await page.run('setTimeout(() => history.back())')
    expect(await settle(path, (p) => p === '/services/rhinoplasty/')).toBe('/services/rhinoplasty/')
    expect(await settle(scrollY, (y) => y === 1400)).toBe(1400)
  })

  test('Back after a navigation in place restores the position; Forward the one after it', async () => {
    await open('/services/')
    await page.run('window.sameDocument = true')
    // The card in view, so that clicking it scrolls nothing.
    const left = await page.run<number>('return Math.round(document.querySelector(arguments[0]).getBoundingClientRect().top + scrollY - 200)', CARD)
    expect(left).toBeGreaterThan(100)
    await scrollTo(left)
    await page.click(CARD)
    expect(await settle(h1, (t) => t === 'Rhinoplasty')).toBe('Rhinoplasty')
    expect(await settle(scrollY, (y) => y === 0)).toBe(0)
    await scrollTo(900)
    await page.run('history.back()')
    expect(await settle(h1, (t) => t === 'Services')).toBe('Services')
    expect(await settle(scrollY, (y) => y === left)).toBe(left)
    await page.run('history.forward()')
    expect(await settle(h1, (t) => t === 'Rhinoplasty')).toBe('Rhinoplasty')
    expect(await settle(scrollY, (y) => y === 900)).toBe(900)
    // All of it in the one document the visitor opened.
    expect(await page.run('return window.sameDocument')).toBe(true)
  })

  test('a reload hands restoration back to the engine, which keeps the visitor near where they were', async () => {
    await open('/services/rhinoplasty/')
    await scrollTo(1200)
    await page.run('addEventListener("pagehide", () => sessionStorage.setItem("restoration", history.scrollRestoration))')
    await page.reload()
    expect(await path()).toBe('/services/rhinoplasty/')
    // The runtime's part: restoration is the engine's again when the page is left.
    expect(await page.run('return sessionStorage.getItem("restoration")')).toBe('auto')
    // The engine's own restoration, which may settle on a block boundary nearby.
    expect(Math.abs(await settle(scrollY, (y) => Math.abs(y - 1200) <= HEIGHT / 4) - 1200)).toBeLessThanOrEqual(HEIGHT / 4)
  })

  test('a reload the engine does not restore still lands where the visitor was: the runtime puts its saved position back', async () => {
    await open('/services/rhinoplasty/')
    await scrollTo(1200)
    // After the runtime's own handler: restoration stays manual as the page is left, and no engine
    // restores from that, as WebKit did not once under load though the runtime had handed it back.
    await page.run('addEventListener("pagehide", () => { history.scrollRestoration = "manual" })')
    await page.reload()
    expect(await path()).toBe('/services/rhinoplasty/')
    expect(await settle(scrollY, (y) => y === 1200)).toBe(1200)
  })

  test('an anchor link scrolls to its heading; Back returns to the top of the page', async () => {
    await open('/services/rhinoplasty/')
    await page.run(`const link = document.createElement('a')
      link.href = '#risks-and-possible-complications'; link.id = 'to-risks'; link.textContent = 'Risks'
      document.querySelector('main').prepend(link)`)
    await page.click('#to-risks')
    expect(await settle(path, (p) => p.endsWith('#risks-and-possible-complications'))).toBe('/services/rhinoplasty/#risks-and-possible-complications')
    const top = () => page.run<number>('return Math.round(document.getElementById("risks-and-possible-complications").getBoundingClientRect().top)')
    expect(await settle(top, (t) => t >= 0 && t < 150)).toBeLessThan(150)
    expect(await scrollY()).toBeGreaterThan(500)
    await page.run('history.back()')
    expect(await settle(path, (p) => p === '/services/rhinoplasty/')).toBe('/services/rhinoplasty/')
    expect(await settle(scrollY, (y) => y === 0)).toBe(0)
  })
})
