/**
 * One visit of every built page in headless Chromium (Debian's, driven by playwright-core), with
 * the site's security policy in force: what axe-core finds, which of the site's own scripts and
 * stylesheets the page loads (islands included), and any policy violation. The accessibility and
 * budget checks read the same visit.
 */
import type { AxeResults, RunOptions } from 'axe-core'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { UsageError } from '../errors.ts'
import { urlOfOutput } from '../shared/urls.ts'
import { CHROMIUM } from './chromium.ts'

// Required rather than imported, as content-rules.ts does axe-core: 0.16 s less of this thread's start.
const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')

/** WCAG 2.2 A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
/** Pages open at once: as many as the two cores keep busy. */
export const TABS = 2

interface AxeCore { run: (context: Document, options: RunOptions) => Promise<AxeResults> }
let axeScript: string | undefined
export const axeSource = () => (axeScript ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))

export interface PageVisit {
  /** Output file of the page. Example: 'cn/contact/index.html' */
  path: string
  violations: { id: string; help: string; helpUrl: string; targets: string[] }[]
  /** Paths of the site's own scripts and stylesheets the page loaded. Example: 'assets/main.X.js' */
  loaded: { path: string; type: 'script' | 'stylesheet' }[]
  /** Content-Security-Policy violations reported by the browser. */
  blocked: string[]
}

/** One page, loaded in `page`: what the policy blocked, what it loaded and what axe-core finds once its islands have started. */
async function visitOne(page: Page, url: string): Promise<Omit<PageVisit, 'path'>> {
  await page.goto(url)
  // One call into the page, which answers when it is ready: asking again and again until the
  // islands have started cost each visit a round trip through Chromium every 20 ms.
  return page.evaluate(async ({ tags, waiting, timeout }) => {
    // Islands mark themselves ready once started; axe then sees the page a visitor uses.
    // (No named functions in here: the test runner's compiler would wrap them in a helper the page lacks.)
    let observer: MutationObserver | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeout)
      observer = new MutationObserver(() => { if (!document.querySelector(waiting)) resolve() })
      observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-island-ready'] })
      if (!document.querySelector(waiting)) resolve()
    })
    observer?.disconnect()
    clearTimeout(timer)
    // Read before axe runs: axe fetches cross-origin stylesheets itself, which the policy rightly blocks.
    const blocked = [...(window as unknown as { __blocked: string[] }).__blocked]
    // axe-core itself, not @axe-core/playwright, whose analyze() opens a page of its own to finish
    // every run: more than half of each visit. The site's only frame is another site's map.
    const results = await (window as unknown as { axe: AxeCore }).axe
      .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false })
    const violations = results.violations.map((v) => ({ id: v.id, help: v.help, helpUrl: v.helpUrl, targets: v.nodes.map((n) => n.target.join(' ')) }))
    // The site's own scripts and stylesheets, as the page's resource timing lists them: asking the
    // browser's driver to report every response instead costs it and Chromium a message for each.
    const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name))
      .filter((address) => address.origin === location.origin && /\.(?:js|css)$/.test(address.pathname))
      .map((address) => ({ path: address.pathname.slice(1), type: address.pathname.endsWith('.css') ? 'stylesheet' as const : 'script' as const }))
    return { blocked, violations, loaded }
  }, { tags: AXE_TAGS, waiting: '[data-island]:not([data-island-ready])', timeout: 10_000 })
}

/** Chromium's switches for judging the site at `serverUrl`, and nothing else. */
export const chromiumArgs = (serverUrl: string): string[] => [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run',
  // Frames made on the page's own thread, when asked for: nothing is looked at, and the
  // compositor's threads cost more than a third of each page's load (the DOM, the styles
  // and the layout axe reads are the same).
  '--disable-threaded-compositing', '--disable-threaded-animation',
  // Each page runs axe-core once, in a fresh document: V8's optimising compilers spend more
  // on it than they win back (a fifth of Chromium's time over the kinds of pages).
  '--js-flags=--max-opt=1',
  // The network service and the GPU process (which only composites, in software) run inside the
  // browser's own process: two fewer processes to start and to pass every request and frame
  // between (about a twentieth of Chromium's CPU time over the kinds of pages).
  '--enable-features=NetworkServiceInProcess2', '--in-process-gpu',
  // Other origins (the font service, the map) are not part of the site: they fail at once, in
  // Chromium itself. Intercepting requests instead sends every one of the site's own through
  // this thread too, a tenth of the browser's work.
  `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${new URL(serverUrl).hostname}`,
]

export interface OpenBrowser {
  /**
   * Opens each page and reads it as visitPages says, in one tab until `widen` settles (at once
   * without it), then in two.
   */
  visit: (paths: string[], onVisit?: (done: number) => void, widen?: Promise<void>) => Promise<PageVisit[]>
  close: () => Promise<void>
}

/** Chromium, started with the security policy's listener and axe-core in every page, reading the site at `serverUrl`. */
export async function openBrowser(serverUrl: string): Promise<OpenBrowser> {
  if (!existsSync(CHROMIUM)) throw new UsageError(`Chromium is not installed at ${CHROMIUM}: install Debian's headless shell of it (apt-get install chromium-headless-shell) or Chromium itself (apt-get install chromium), or set CHROMIUM_PATH to a Chromium.`)
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs(serverUrl) })
  try {
    const context = await browser.newContext()
    // In every page from its start: compiled once per tab rather than once per visit.
    await context.addInitScript({ content: axeSource() })
    await context.addInitScript(() => {
      const blocked: string[] = ((window as unknown as { __blocked: string[] }).__blocked = [])
      document.addEventListener('securitypolicyviolation', (e) => blocked.push(`${e.effectiveDirective} blocked ${e.blockedURI === 'inline' || !e.blockedURI ? 'inline code' : e.blockedURI}`))
    })
    return { visit: (paths, onVisit, widen) => visitAll(context, serverUrl, paths, onVisit, widen), close: () => browser.close() }
  } catch (error) {
    await browser.close()
    throw error
  }
}

export async function visitPages(serverUrl: string, paths: string[], onVisit?: (done: number) => void): Promise<PageVisit[]> {
  const browser = await openBrowser(serverUrl)
  try {
    return await browser.visit(paths, onVisit)
  } finally {
    await browser.close()
  }
}

async function visitAll(context: BrowserContext, serverUrl: string, paths: string[], onVisit?: (done: number) => void, widen = Promise.resolve()): Promise<PageVisit[]> {
  const visits: PageVisit[] = []
  // Two tabs keep both cores busy while one page waits on the network; each is used for page
  // after page, since a tab is a renderer process of its own and costs more to open than a visit.
  // The second waits for `widen`: while the link check runs, it and this thread's caller already
  // share the cores with the first tab, and a second would only slow them.
  const queue = [...paths]
  await Promise.all(Array.from({ length: Math.min(TABS, paths.length) }, async (_, tab) => {
    if (tab > 0) await widen
    if (queue.length === 0) return
    const page = await context.newPage()
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      visits.push({ path, ...await visitOne(page, `${serverUrl}${urlOfOutput(path)}`) })
      onVisit?.(visits.length)
    }
    await page.close()
  }))
  return visits.sort((a, b) => a.path.localeCompare(b.path))
}
