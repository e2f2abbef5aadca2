/**
 * What a visitor does, in the three engines they use (Blink, Gecko, WebKit), where engines may
 * differ: a link opening a page in place, the loading bar, the language cookie and the root
 * redirect, the menu on a phone, and the home page carousel's controls. The fuller suites of each
 * run in Chromium. Pages come through a proxy that can hold an answer (holdingProxy), since only
 * Chromium's automation can hold a request itself.
 *
 * Errors and policy violations are heard from inside the page, from a listener put there once it
 * has loaded (WebKit's driver passes no console on): what the first load itself reports is the
 * Chromium suites' to catch (tests/support/browser.ts launchBrowser).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { buildSite, serveFolder, type RunningServer } from '../../support/browser.ts'
import { ENGINES, engineForTests, holdingProxy, settle, type EnginePage, type HoldingProxy } from '../../support/engines.ts'

let server: RunningServer
let proxy: HoldingProxy
let carouselChunk: string
beforeAll(async () => {
  const site = await buildSite()
  carouselChunk = `/assets/chunks/${readdirSync(join(site, 'assets/chunks')).find((file) => /^carousel\.\w+\.js$/.test(file))}`
  server = await serveFolder(site)
  proxy = await holdingProxy(server.url)
}, 180_000)
afterAll(async () => {
  await proxy?.close()
  await server?.close()
})

/** Starts recording, in the page, every uncaught error and every policy violation from now on. */
const LISTEN = `window.problems = []
  addEventListener('error', (e) => problems.push('error: ' + e.message))
  addEventListener('unhandledrejection', (e) => problems.push('rejection: ' + e.reason))
  document.addEventListener('securitypolicyviolation', (e) => problems.push('policy: ' + e.violatedDirective + ' ' + e.blockedURI))`

describe.each(ENGINES)('%s', (name) => {
  const { tab } = engineForTests(name)
  let page!: EnginePage
  afterEach(() => proxy.clear())

  const open = async (path: string, width = 1000, height = 700) => {
    page = await tab(width, height)
    await page.goto(proxy.url + path)
  }
  const read = <T>(expression: string) => () => page.run<T>(`return ${expression}`)
  const cookie = read<string>('(document.cookie.match(/(?:^|; )i18n_redirected=([^;]*)/) || [])[1]')

  test('a link opens the page in place: address, title, language and heading, with no error', async () => {
    await open('/cn/services/', 1280, 800)
    await page.run(`${LISTEN}; window.sameDocument = true`)
    await page.click('main a[href="/cn/services/rhinoplasty/"]')
    expect(await settle(read('location.pathname'), (p) => p === '/cn/services/rhinoplasty/')).toBe('/cn/services/rhinoplasty/')
    expect(await settle(read<string>('document.querySelector("main h1").textContent'), (t) => t !== '服务项目')).toBe('鼻整形手术')
    expect(await page.run('return document.title')).toMatch(/^鼻整形手术/)
    expect(await page.run('return document.documentElement.lang')).toBe('zh')
    expect(await page.run('return window.sameDocument')).toBe(true)
    // A page of the other language, reached in place, writes its language in the cookie.
    await page.click('#site-nav a[href="/blog/"]')
    expect(await settle(read('document.documentElement.lang'), (l) => l === 'en')).toBe('en')
    expect(await page.run('return window.sameDocument')).toBe(true)
    expect(await settle(cookie, (c) => c === 'en')).toBe('en')
    expect(await page.run('return window.problems')).toEqual([])
  })

  test('every page load writes its language in the cookie; at the root, the cookie decides', async () => {
    // Written by the runtime as it starts, which on a busy machine can be after the load event.
    await open('/cn/contact/')
    expect(await settle(cookie, (c) => c === 'cn')).toBe('cn')
    await page.goto(`${proxy.url}/contact/`)
    expect(await settle(cookie, (c) => c === 'en')).toBe('en')
    // The visitor chose Chinese before: the root sends them to /cn/, once.
    await page.run('document.cookie = "i18n_redirected=cn; path=/; SameSite=Lax"')
    await page.goto(`${proxy.url}/`)
    expect(await settle(read('location.pathname'), (p) => p === '/cn/')).toBe('/cn/')
    expect(await settle(read('document.readyState'), (s) => s === 'complete')).toBe('complete')
    expect(await page.run('return location.pathname')).toBe('/cn/')
    // Any other path stays as it is, whatever the cookie says.
    await page.goto(`${proxy.url}/services/`)
    expect(await page.run('return location.pathname')).toBe('/services/')
  })

  test('on a phone the menu button opens and closes the navigation', async () => {
    // 390 px wide; WebKit's window is at least 447 px wide, still below the 1,024 px at which the
    // navigation shows in full: there the same phone layout is tried at 447 px.
    await open('/services/', 390, 800)
    await page.run(LISTEN)
    const shown = read<boolean>('getComputedStyle(document.getElementById("site-nav")).display !== "none" && document.getElementById("site-nav").getBoundingClientRect().height > 0')
    const expanded = read<string>('document.querySelector(".menu-button").getAttribute("aria-expanded")')
    expect(await page.run('return innerWidth < 1024')).toBe(true)
    expect(await shown()).toBe(false)
    await page.click('.menu-button')
    expect(await settle(expanded, (e) => e === 'true')).toBe('true')
    expect(await settle(shown, Boolean)).toBe(true)
    await page.click('.menu-button')
    expect(await settle(expanded, (e) => e === 'false')).toBe('false')
    expect(await settle(shown, (s) => !s)).toBe(false)
    expect(await page.run('return window.problems')).toEqual([])
  })

  test('the carousel moves to the next slides and stops; its rotation button starts it again', async () => {
    await open('/')
    await page.run(LISTEN)
    expect(await settle(read('document.querySelector(".carousel").hasAttribute("data-island-ready")'), Boolean)).toBe(true)
    const index = read<string>('document.querySelector(".carousel").getAttribute("data-index")')
    const state = read<string>('document.querySelector(".carousel").getAttribute("data-state")')
    const before = Number(await index())
    await page.run('document.querySelector(".carousel").scrollIntoView({ block: "center" })')
    await page.click('.carousel__next')
    expect(await settle(state, (s) => s === 'stopped')).toBe('stopped')
    expect(Number(await index())).toBe(before + 1)
    // The slides in view are the ones the index names; the others cannot be reached.
    const reachable = read<number[]>('[...document.querySelectorAll(".carousel__slide")].flatMap((s, i) => s.inert ? [] : [i])')
    expect(await settle(reachable, (r) => r[0] === before + 1)).toEqual([before + 1, before + 2])
    await page.click('.carousel__rotation')
    expect(await settle(state, (s) => s !== 'stopped')).not.toBe('stopped')
    expect(await page.run('return window.problems')).toEqual([])
  })

  test('a slow page shows the loading bar while it is awaited, and the bar goes once it has come', async () => {
    await open('/', 1280, 800)
    await page.run(LISTEN)
    const bar = read<{ shown: boolean; now: string | null; failed: boolean }>(`(() => { const bar = document.querySelector('[role=progressbar]')
      return { shown: !bar.hidden && bar.getBoundingClientRect().height > 0, now: bar.getAttribute('aria-valuenow'), failed: bar.classList.contains('is-failed') } })()`)
    expect((await bar()).shown).toBe(false) // never on the first load
    const contact = proxy.hold('/contact/')
    await page.click('#site-nav a[href="/contact/"]')
    await contact.arrived
    // Held: the bar shows once 200 ms have passed, and grows.
    expect((await settle(bar, (b) => b.shown && Number(b.now) >= 4)).shown).toBe(true)
    contact.release()
    expect(await settle(read<string>('document.querySelector("main h1").textContent'), (t) => t === 'Contact us')).toBe('Contact us')
    expect(await settle(bar, (b) => !b.shown)).toMatchObject({ shown: false, failed: false })
    expect(await page.run('return window.problems')).toEqual([])
  })

  test('leaving a page while its chunk is still loading goes where the visitor asked, and stays', async () => {
    // The chunk is held, so that the home page is left with its load in flight, which the engine
    // cancels: a cancelled load is not a missing file, and the script-failure guard must not
    // reload the page being left. The tab's navigations do not wait for a load the test holds back.
    page = await tab(1000, 700, 'early')
    const chunk = proxy.hold(carouselChunk)
    await page.goto(`${proxy.url}/`)
    await chunk.arrived
    const before = proxy.requested.length
    await page.goto(`${proxy.url}/contact/`)
    const shown = read<string>('location.pathname + " " + (document.querySelector("main h1") || {}).textContent')
    expect(await settle(shown, (text) => text === '/contact/ Contact us')).toBe('/contact/ Contact us')
    // Past the moment a reload would have come.
    await sleep(3000)
    // What the engine asked for since: the contact page once, and its islands; no page again.
    const since = proxy.requested.slice(before)
    expect(since.filter((path) => !/\.\w+$/.test(path))).toEqual(['/contact/'])
    expect(since.some((path) => /\/contact-form\.\w+\.js$/.test(path)), since.join(' ')).toBe(true)
    expect(await shown()).toBe('/contact/ Contact us')
    expect(await page.run('return performance.getEntriesByType("navigation")[0].type')).toBe('navigate')
  })
})
