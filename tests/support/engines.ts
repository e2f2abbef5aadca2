/**
 * The three browser engines the site's visitors use, each from Debian and driven the way its own
 * automation allows: Chromium (Blink) through playwright-core, Firefox ESR (Gecko) over WebDriver
 * BiDi through puppeteer-core, and WebKitGTK's MiniBrowser (WebKit, Safari's engine) through its
 * WebKitWebDriver and selenium-webdriver, under an Xvfb display of its own when there is none.
 * No browser is downloaded. A test written against `EnginePage` runs unchanged in all three.
 *
 * What an engine's automation cannot do is not offered: WebKitWebDriver cannot take the network
 * offline (its tabs have no `offline`), and its window is at least 447 px wide, so `open` takes no
 * narrower viewport.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { chromium } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import puppeteer from 'puppeteer-core'
import { Builder, By, Key, type WebDriver } from 'selenium-webdriver'
import { chromiumOptions } from './browser.ts'

export type EngineName = 'chromium' | 'firefox' | 'webkit'
export const ENGINES: EngineName[] = ['chromium', 'firefox', 'webkit']

/** One tab of one engine. `run` evaluates a script body (`return …`) in the page, with `args` as `arguments`. */
export interface EnginePage {
  /** A full page load of `url`, resolved once it has loaded. */
  goto(url: string): Promise<void>
  run<T>(body: string, ...args: unknown[]): Promise<T>
  /** A real click (the engine's own input) on the first element matching `selector`. */
  click(selector: string): Promise<void>
  /** Types `text` into the first element matching `selector`, key by key; `\n` is the Enter key. */
  type(selector: string, text: string): Promise<void>
  /** Takes the tab's network away (`true`) or gives it back: absent in WebKit, whose driver cannot. */
  offline?: (on: boolean) => Promise<void>
  reload(): Promise<void>
  close(): Promise<void>
}

/**
 * When a tab's `goto` resolves: once the page has loaded (the default), or as early as the engine's
 * automation can tell, for a test that leaves a page whose load it holds back and reads the rest
 * with `settle`. WebKit's driver then waits for nothing (page-load strategy `none`): with `eager`,
 * under load, it took no command at all once the held request had gone out, neither a navigation
 * nor a script, until that request was answered (4 times in 18 runs beside three busy cores; with
 * `none`, 0 in 28).
 */
export type Arrival = 'loaded' | 'early'

export interface Engine {
  name: EngineName
  /** A new tab of `width` × `height` CSS pixels (WebKit: the window's size, at least 447 px wide). */
  open(width: number, height: number, arrival?: Arrival): Promise<EnginePage>
  close(): Promise<void>
}

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

export async function startEngine(name: EngineName): Promise<Engine> {
  if (name === 'chromium') return startChromium()
  if (name === 'firefox') return startFirefox()
  return startWebKit()
}

/**
 * For the tests of one engine in a describe block: the engine starts before them and closes after
 * them, and each test's tab (`tab(width, height)`) is closed after it, passed or not, since
 * WebKitWebDriver holds one session at a time.
 */
export function engineForTests(name: EngineName): { tab: (width: number, height: number, arrival?: Arrival) => Promise<EnginePage> } {
  let engine: Engine | undefined
  let opened: EnginePage | undefined
  beforeAll(async () => { engine = await startEngine(name) }, 60_000)
  afterAll(async () => { await engine?.close() })
  afterEach(async () => {
    await opened?.close()
    opened = undefined
  })
  return { tab: async (width, height, arrival) => (opened = await engine!.open(width, height, arrival)) }
}

/**
 * Polls `read` until `accept` holds of its value, for at most `timeout` ms, and returns the last
 * value: a page that is being replaced cannot answer for a moment, in any engine.
 */
export async function settle<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeout = 15_000): Promise<T> {
  const until = Date.now() + timeout
  let last: T | undefined
  let failure: unknown
  while (Date.now() < until) {
    try {
      last = await read()
      failure = undefined
      if (accept(last)) return last
    } catch (error) {
      failure = error
    }
    await sleep(50)
  }
  if (failure !== undefined && last === undefined) throw failure
  return last as T
}

/**
 * A script body and its arguments as one expression, evaluated by the automation protocol itself:
 * the site's policy forbids eval in its pages, and Function(body) would be one.
 */
const asExpression = (body: string, args: unknown[]) => `(function () { ${body} }).apply(null, ${JSON.stringify(args)})`

async function startChromium(): Promise<Engine> {
  const browser = await chromium.launch(chromiumOptions)
  return {
    name: 'chromium',
    open: async (width, height, arrival = 'loaded') => {
      const context = await browser.newContext({ viewport: { width, height } })
      const page = await context.newPage()
      return {
        goto: async (url) => { await page.goto(url, { waitUntil: arrival === 'loaded' ? 'load' : 'commit' }) },
        run: (body, ...args) => page.evaluate(asExpression(body, args)),
        click: (selector) => page.locator(selector).first().click(),
        type: (selector, text) => page.locator(selector).first().pressSequentially(text),
        offline: (on) => context.setOffline(on),
        reload: async () => { await page.reload() },
        close: () => context.close(),
      }
    },
    close: () => browser.close(),
  }
}

async function startFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: true,
    // No updates, no telemetry, no requests of its own: the machine's network is closed.
    extraPrefsFirefox: { 'app.update.enabled': false, 'browser.shell.checkDefaultBrowser': false, 'datareporting.policy.dataSubmissionEnabled': false, 'network.captive-portal-service.enabled': false },
  })
  return {
    name: 'firefox',
    open: async (width, height, arrival = 'loaded') => {
      // A context of its own, as a Chromium tab and a WebKit session have: no cookie of another tab.
      const context = await browser.createBrowserContext()
      const page = await context.newPage()
      await page.setViewport({ width, height })
      return {
        // Puppeteer's earliest is the document parsed.
        goto: async (url) => { await page.goto(url, { waitUntil: arrival === 'loaded' ? 'load' : 'domcontentloaded' }) },
        run: (body, ...args) => page.evaluate(asExpression(body, args)) as never,
        click: (selector) => page.click(selector),
        type: (selector, text) => page.type(selector, text),
        offline: (on) => page.setOfflineMode(on),
        reload: async () => { await page.reload({ waitUntil: 'load' }) },
        close: () => context.close(),
      }
    },
    close: () => browser.close(),
  }
}

/** A free TCP port of 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    }).on('error', reject)
  })
}

/**
 * An X display for MiniBrowser: the session's own, else an Xvfb started here, which picks a free
 * display number itself and writes it to a pipe (-displayfd), so that suites started at once
 * never share one.
 */
async function display(): Promise<{ name: string; stop: () => void }> {
  if (process.env.DISPLAY) return { name: process.env.DISPLAY, stop: () => {} }
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] })
  const number = await new Promise<string>((resolve, reject) => {
    let written = ''
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      written += chunk.toString()
      if (written.includes('\n')) resolve(written.trim())
    })
    xvfb.on('exit', (code) => reject(new Error(`Xvfb stopped (exit code ${code}) before it named its display`)))
    xvfb.on('error', reject)
  })
  return { name: `:${number}`, stop: () => xvfb.kill() }
}

/**
 * Runs WebKit's commands one by one, each bounded and named. Under load WebKitWebDriver has hung a
 * command past its own limits, and a test's time-out names no step: a command still waiting after
 * 10 s is reported on stderr at once, and one past its bound fails naming itself and the commands
 * before it.
 */
function webKitCommands(): <T>(label: string, bound: number, act: () => Promise<T>) => Promise<T> {
  const trail: string[] = []
  return async (label, bound, act) => {
    const started = Date.now()
    const before = () => trail.slice(-6).join(', ') || 'none'
    const slow = setTimeout(() => console.warn(`WebKit: "${label}" still waiting after 10 s; the commands before it: ${before()}`), 10_000)
    let expire: NodeJS.Timeout | undefined
    try {
      return await Promise.race([act(), new Promise<never>((_, reject) => {
        expire = setTimeout(() => reject(new Error(`WebKit: "${label}" gave no answer in ${bound / 1000} s; the commands before it: ${before()}`)), bound)
      })])
    } finally {
      clearTimeout(slow)
      clearTimeout(expire)
      trail.push(`${label} (${Date.now() - started} ms)`)
      if (trail.length > 20) trail.shift()
    }
  }
}

/** WebKitWebDriver on a free port of 127.0.0.1, drawing on `screen`. */
async function startWebKitDriver(screen: string): Promise<{ server: string; stop: () => void }> {
  const port = await freePort()
  const driverProcess: ChildProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], { stdio: 'ignore', env: { ...process.env, DISPLAY: screen } })
  const server = `http://127.0.0.1:${port}`
  await settle(() => fetch(`${server}/status`).then((r) => r.ok), Boolean, 15_000)
  return { server, stop: () => driverProcess.kill() }
}

async function startWebKit(): Promise<Engine> {
  const screen = await display()
  let driver = await startWebKitDriver(screen.name)
  const command = webKitCommands()
  const tabs: WebDriver[] = []
  const newSession = (arrival: Arrival) => new Builder().usingServer(driver.server).withCapabilities({
    browserName: 'MiniBrowser',
    pageLoadStrategy: arrival === 'loaded' ? 'normal' : 'none',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  }).build()
  return {
    name: 'webkit',
    // One MiniBrowser session per tab: WebKitWebDriver's windows share nothing the tests rely on.
    open: async (width, height, arrival = 'loaded') => {
      // A MiniBrowser that never starts is the machine's, not the page's: one more try, with a new driver.
      const session = await command('new session', 45_000, () => newSession(arrival)).catch(async (error: unknown) => {
        console.warn(`${String(error)}; starting WebKitWebDriver again`)
        driver.stop()
        driver = await startWebKitDriver(screen.name)
        return command('new session (second try)', 45_000, () => newSession(arrival))
      })
      tabs.push(session)
      // The driver's own limits come first, so that its answer names the command's failure.
      await command('set time-outs', 30_000, () => session.manage().setTimeouts({ pageLoad: 60_000, script: 30_000 }))
      await command('set window', 30_000, () => session.manage().window().setRect({ width: Math.max(width, 447), height }))
      return {
        goto: (url) => command(`goto ${new URL(url).pathname}`, 70_000, () => session.get(url)),
        run: (body, ...args) => command(`run ${body.slice(0, 40)}`, 40_000, () => session.executeScript(body, ...args)),
        click: (selector) => command(`click ${selector}`, 40_000, async () => { await session.findElement(By.css(selector)).click() }),
        type: (selector, text) => command(`type into ${selector}`, 40_000, async () => { await session.findElement(By.css(selector)).sendKeys(text.replace(/\n/g, Key.ENTER)) }),
        reload: () => command('reload', 70_000, () => session.navigate().refresh()),
        close: async () => { tabs.splice(tabs.indexOf(session), 1); await command('quit', 30_000, () => session.quit()) },
      }
    },
    close: async () => {
      await Promise.all(tabs.map((session) => session.quit().catch(() => {})))
      driver.stop()
      screen.stop()
    },
  }
}

/** A server in front of another that can hold the answer to a path until the test lets it go. */
export interface HoldingProxy {
  url: string
  /** Holds the next request for `path`: `arrived` resolves once it comes, `release` forwards it. */
  hold(path: string): { arrived: Promise<void>; release: () => void }
  /** The path of every request so far, in the order they came. */
  requested: string[]
  /** Forgets the holds not yet met and lets every held answer go (after each test). */
  clear(): void
  close(): Promise<void>
}

/**
 * A proxy on 127.0.0.1 before `target` (a `RunningServer`'s url), for the engines whose automation
 * cannot hold a request (Firefox's and WebKit's drivers here): every request is forwarded as it
 * is, but for one a test holds.
 */
export async function holdingProxy(target: string): Promise<HoldingProxy> {
  const { createServer: createHttpServer, request } = await import('node:http')
  const holds = new Map<string, { arrive: () => void; released: Promise<void> }>()
  const releases: (() => void)[] = []
  const requested: string[] = []
  const server = createHttpServer((incoming, outgoing) => {
    requested.push(new URL(incoming.url ?? '/', target).pathname)
    const forward = () => {
      const upstream = request(`${target}${incoming.url}`, { method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      })
      upstream.on('error', () => outgoing.destroy())
      incoming.pipe(upstream)
    }
    const held = holds.get(new URL(incoming.url ?? '/', target).pathname)
    if (!held) return forward()
    holds.delete(new URL(incoming.url ?? '/', target).pathname)
    held.arrive()
    void held.released.then(forward)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    requested,
    hold: (path) => {
      let arrive!: () => void
      let release!: () => void
      const arrived = new Promise<void>((resolve) => { arrive = resolve })
      holds.set(path, { arrive, released: new Promise<void>((resolve) => { release = resolve }) })
      releases.push(release)
      return { arrived, release }
    },
    clear: () => {
      holds.clear()
      for (const release of releases.splice(0)) release()
    },
    close: () => new Promise<void>((closed) => { server.closeAllConnections(); server.close(() => closed()) }),
  }
}
