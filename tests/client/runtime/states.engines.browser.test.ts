/**
 * What a visitor meets in the three engines they use (Blink, Gecko, WebKit), where engines may
 * differ: the offline notice, the enquiry form sent to the local endpoint, the inline guard when a
 * script chunk is gone after a deploy (each engine words a failed import() its own way), and the
 * first load of a page of each kind in both languages, with no error and no policy violation. The
 * fuller suites run in Chromium: states, analytics (the guard) and islands/contact-form.
 *
 * Pages come through a proxy (`visitorNetwork`) that can drop every connection or lose a file,
 * which the drivers of Firefox and WebKit cannot do themselves, and that puts a probe script first
 * in every page: WebKit's driver passes no console on, so errors and policy violations are heard
 * from inside the page, from the start of its first load.
 */
import { readFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { startFormSite, type FormSite } from '../../support/form.ts'
import { projectRoot } from '../../support/helpers.ts'
import { ENGINES, engineForTests, settle, type EnginePage } from '../../support/engines.ts'

/** The messages of a locale file, by key: zh('runtime.offline'). */
function messages(file: string): (key: string) => string {
  const all: unknown = parse(readFileSync(join(projectRoot, 'locales', file), 'utf8'))
  return (key) => String(key.split('.').reduce((at, part) => (at as Record<string, unknown> | undefined)?.[part], all))
}
const en = messages('en-SG.yaml')
const zh = messages('zh-CN.yaml')

/**
 * Records in `window.problems` every uncaught error, unhandled rejection, console.error, policy
 * violation and file of the site's own that fails to load. A file of the page's origin, so that
 * the policy (script-src 'self') lets it run before anything else in the page.
 */
const PROBE_PATH = '/__problems.js'
const PROBE = `(function () {
  var problems = window.problems = []
  addEventListener('error', function (e) {
    if (e.target === window) return problems.push('error: ' + e.message)
    var url = e.target.currentSrc || e.target.src || e.target.href || ''
    // The font service cannot be reached from this machine: only the site's own files count.
    if (url.indexOf(location.origin + '/') === 0) problems.push('failed to load: ' + url)
  }, true)
  addEventListener('unhandledrejection', function (e) { problems.push('rejection: ' + ((e.reason && e.reason.message) || e.reason)) })
  document.addEventListener('securitypolicyviolation', function (e) { problems.push('policy: ' + e.violatedDirective + ' ' + e.blockedURI) })
  var error = console.error
  console.error = function () { problems.push('console: ' + [].slice.call(arguments).join(' ')); return error.apply(console, arguments) }
})()`

interface Network {
  url: string
  /** Drops every connection from now on (`true`), or forwards again. */
  drop(on: boolean): void
  /** Answers 404 for every path that starts with `prefix`, as for a file the last deploy removed. */
  lose(prefix: string): void
  /** How many times `path` was asked for since the last reset. */
  asked(path: string): number
  reset(): void
  close(): Promise<void>
}

/** A proxy on 127.0.0.1 before `target` that forwards every request, but as `Network` says. */
async function visitorNetwork(target: string): Promise<Network> {
  let dropping = false
  let lost: string[] = []
  let asked: string[] = []
  const server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? '/', target).pathname
    asked.push(path)
    if (dropping) return void incoming.socket.destroy()
    if (path === PROBE_PATH) return void outgoing.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' }).end(PROBE)
    if (lost.some((prefix) => path.startsWith(prefix))) return void outgoing.writeHead(404, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end('Not found\n')
    // Asked for whole and uncompressed, so that every page can take the probe.
    const headers: Record<string, string | string[] | undefined> = { ...incoming.headers, host: new URL(target).host }
    for (const name of ['accept-encoding', 'if-none-match', 'if-modified-since']) delete headers[name]
    const upstream = request(`${target}${incoming.url}`, { method: incoming.method, headers }, (answer) => {
      if (!/^text\/html/.test(answer.headers['content-type'] ?? '')) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
        return
      }
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        const page = Buffer.concat(chunks).toString().replace('<meta charset="utf-8">', `$&<script src="${PROBE_PATH}"></script>`)
        delete answer.headers['content-length']
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers).end(page)
      })
    })
    upstream.on('error', () => outgoing.destroy())
    incoming.pipe(upstream)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    drop: (on) => { dropping = on },
    lose: (prefix) => { lost.push(prefix) },
    asked: (path) => asked.filter((p) => p === path).length,
    reset: () => { dropping = false; lost = []; asked = [] },
    close: () => new Promise<void>((closed) => { server.closeAllConnections(); server.close(() => closed()) }),
  }
}

let site: FormSite
let network: Network
beforeAll(async () => {
  site = await startFormSite()
  network = await visitorNetwork(site.url)
}, 180_000)
afterAll(async () => {
  await network?.close()
  await site?.close()
})

/** One page of each kind with its heading; articles are written in English only. */
const FIRST_LOADS: [string, string][] = [
  ['/', 'Plastic surgery in Singapore, explained with care'],
  ['/services/rhinoplasty/', 'Rhinoplasty'],
  ['/blog/how-to-prepare-for-a-rhinoplasty/', 'How to Prepare for a Rhinoplasty'],
  ['/dr-evelyn-quah/', 'Dr Evelyn Quah Si Min'],
  ['/contact/', 'Contact us'],
  ['/no-such-page/', en('notFound.title')],
  // The Chinese pages last: each writes its language in the cookie, which at the root decides.
  ['/cn/', '新加坡整形外科，用心为您讲解'],
  ['/cn/services/rhinoplasty/', '鼻整形手术'],
  ['/cn/dr-evelyn-quah/', '柯思敏医生 (Dr Evelyn Quah Si Min)'],
  ['/cn/contact/', '联系我们'],
  ['/cn/no-such-page/', zh('notFound.title')],
]

describe.each(ENGINES)('%s', (name) => {
  const { tab } = engineForTests(name)
  let page!: EnginePage
  afterEach(() => network.reset())

  // Wide enough for the navigation to show in the header (from 1024 px).
  /**
   * A visitor who has the page: loaded, its runtime and islands started. Under load a chunk may
   * still be on its way after the load event, and one cut off by the network going is a failure
   * the test did not mean to make.
   */
  const open = async (path: string) => {
    page = await tab(1280, 800)
    await page.goto(network.url + path)
    expect(await settle(ready, Boolean), path).toBe(true)
  }
  const read = <T>(expression: string) => () => page.run<T>(`return ${expression}`)
  const h1 = read<string>('document.querySelector("main h1").textContent')
  const problems = read<string[] | undefined>('window.problems')
  /** The runtime has started and every island on the page with it. */
  const ready = read<boolean>(`document.readyState === 'complete' && document.documentElement.hasAttribute('data-runtime')
    && [...document.querySelectorAll('[data-island]')].every((island) => island.hasAttribute('data-island-ready'))`)

  /**
   * Takes the network away, or gives it back. WebKitWebDriver cannot, so for WebKit what an engine
   * does when the network goes is done by hand: the proxy drops every connection, and in the page
   * navigator.onLine turns false and `offline` is fired (then the reverse). That is all the runtime
   * reads; the engines' own part in it is tried in Chromium and Firefox, whose drivers can.
   */
  const offline = async (on: boolean) => {
    if (page.offline) return page.offline(on)
    network.drop(on)
    await page.run(`const on = arguments[0]
      if (on) {
        window.realOnLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')
        Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false })
      } else {
        Object.defineProperty(Navigator.prototype, 'onLine', window.realOnLine)
      }
      dispatchEvent(new Event(on ? 'offline' : 'online'))`, on)
  }

  test('offline, a notice in the page\'s language; a link followed offline keeps the page and says why; back online, links work', async () => {
    await open('/cn/')
    const connection = read<string>('document.documentElement.dataset.connection')
    const notice = read<{ text: string; inView: boolean }>(`(() => {
      const notice = document.querySelector('body > [role=status]'), box = notice.getBoundingClientRect()
      return { text: notice.textContent, inView: box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && getComputedStyle(notice).visibility === 'visible' } })()`)
    expect(await settle(connection, (c) => c === 'online')).toBe('online')
    expect((await notice()).text).toBe('')

    await offline(true)
    expect(await settle(connection, (c) => c === 'offline')).toBe('offline')
    expect(await settle(notice, (n) => n.text !== '')).toEqual({ text: zh('runtime.offline'), inView: true })
    const heading = await h1()
    await page.click('#site-nav a[href="/cn/contact/"]')
    expect(await settle(notice, (n) => n.text !== zh('runtime.offline'))).toEqual({ text: zh('runtime.offlineNavigation'), inView: true })
    expect(await page.run('return location.pathname')).toBe('/cn/')
    expect(await h1()).toBe(heading)

    await offline(false)
    expect(await settle(connection, (c) => c === 'online')).toBe('online')
    expect((await settle(notice, (n) => n.text === '')).text).toBe('')
    await page.click('#site-nav a[href="/cn/contact/"]')
    expect(await settle(h1, (t) => t === '联系我们')).toBe('联系我们')
    expect(await page.run('return location.pathname')).toBe('/cn/contact/')
    expect(await problems()).toEqual([])
  })

  test('the enquiry form: sent empty, it shows every error, focus on the first; filled and sent, the thank-you page, and it is stored', async () => {
    await open('/cn/contact/')
    // The island has taken the form over once it turns the native checks off.
    expect(await settle(read('document.querySelector("form.contact-form").noValidate'), Boolean)).toBe(true)
    await page.click('button[type=submit]')
    const errors = read<string[]>('[...document.querySelectorAll(".error-summary:not([hidden]) li")].map((item) => item.textContent)')
    const first = ['nameRequired', 'emailOrPhoneRequired', 'contactMethodRequired', 'procedureRequired', 'consentRequired']
    expect(await settle(errors, (e) => e.length > 0)).toEqual(first.map((key) => zh(`form.errors.${key}`)))
    expect(await page.run('return document.activeElement.id')).toBe('f-name')

    const visitor = `Lim Hui Min ${name}`
    await page.type('#f-name', visitor)
    await page.type('#f-phone', '8123 4567')
    // Chosen from the keyboard, as the boxes below: under load WebKitWebDriver found a click on it not interactable.
    await page.type('#f-contactMethod-phone', ' ')
    // Each driver picks an option its own way, by script in two of them: here the same script for
    // all. The value and the change event are what the island reads.
    await page.run(`const select = document.getElementById('f-procedure')
      select.value = 'double-eyelid-surgery'
      select.dispatchEvent(new Event('change', { bubbles: true }))`)
    await page.type('#f-message', 'Is a consultation possible on a Saturday?\nThank you.')
    // The boxes ticked from the keyboard (WebKitWebDriver finds a click on them not interactable).
    await page.type('#f-consent', ' ')
    await page.type('#f-marketingEmail', ' ')
    expect(await settle(errors, (e) => e.length === 0)).toEqual([]) // each error goes as its field is corrected
    expect(await problems()).toEqual([])
    await page.click('button[type=submit]')

    expect(await settle(read('location.pathname'), (p) => p === '/cn/thank-you/')).toBe('/cn/thank-you/')
    expect(await settle(h1, (t) => t === '感谢您的咨询')).toBe('感谢您的咨询')
    expect(site.enquiries().filter((e) => e.fields.name === visitor)).toEqual([expect.objectContaining({
      locale: 'cn', page: '/cn/contact/',
      fields: expect.objectContaining({
        name: visitor, phone: '8123 4567', contactMethod: 'phone', procedure: 'double-eyelid-surgery',
        message: 'Is a consultation possible on a Saturday?\nThank you.',
      }),
      consent: { privacyNotice: true, marketingEmail: true, marketingSms: false, marketingPhone: false },
    })])
    expect(await problems()).toEqual([])
  })

  test('a script chunk gone after a deploy reloads the page once; gone again, the plain page stays', async () => {
    network.lose('/assets/chunks/carousel.')
    page = await tab(1000, 700)
    // The guard may reload the page before its first load has ended, which a driver may call an
    // interrupted navigation: what follows is what counts.
    await page.goto(`${network.url}/`).catch(() => {})
    const gaveUp = read<boolean>('document.documentElement.hasAttribute("data-chunk-failed")')
    expect(await settle(gaveUp, Boolean)).toBe(true)
    expect(network.asked('/')).toBe(2)
    // The server-rendered page stays, styled as a page without scripts, and is not loaded again.
    expect(await h1()).toBe(FIRST_LOADS[0]![1])
    expect(await page.run('return document.documentElement.classList.contains("js")')).toBe(false)
    await sleep(1000)
    expect(network.asked('/')).toBe(2)
  })

  test('the first load of a page of each kind, in both languages, reports no error and no policy violation', async () => {
    page = await tab(1280, 800)
    const seen: Record<string, { h1: string; problems: string[] | undefined }> = {}
    for (const [path] of FIRST_LOADS) {
      await page.goto(network.url + path)
      expect(await settle(ready, Boolean), path).toBe(true)
      seen[path] = { h1: await h1(), problems: await problems() }
    }
    expect(seen).toEqual(Object.fromEntries(FIRST_LOADS.map(([path, heading]) => [path, { h1: heading, problems: [] }])))
  })
})
