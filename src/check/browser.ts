/**
 * One visit of every built page in headless Chromium (Debian's, driven by playwright-core), with
 * the site's security policy in force: what axe-core finds, which of the site's own scripts and
 * stylesheets the page loads (islands included), and any policy violation. The accessibility and
 * budget checks read the same visit.
 */
import { existsSync } from 'node:fs'
import { AxeBuilder } from '@axe-core/playwright'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** WCAG 2.2 A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
const TABS = 3

export interface PageVisit {
  /** Output file of the page. Example: 'cn/contact/index.html' */
  path: string
  violations: { id: string; help: string; helpUrl: string; targets: string[] }[]
  /** Paths of the site's own scripts and stylesheets the page loaded. Example: 'assets/main.X.js' */
  loaded: { path: string; type: 'script' | 'stylesheet' }[]
  /** Content-Security-Policy violations reported by the browser. */
  blocked: string[]
}

export async function visitPages(serverUrl: string, paths: string[], onVisit?: (done: number) => void): Promise<PageVisit[]> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`)
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  })
  try {
    const context = await browser.newContext()
    // Other origins (the font service, the map) are not part of the site: answer them empty at once.
    await context.route((url) => url.origin !== serverUrl, (route) => route.fulfill({ status: 204 }))
    await context.addInitScript(() => {
      const blocked: string[] = ((window as unknown as { __blocked: string[] }).__blocked = [])
      document.addEventListener('securitypolicyviolation', (e) => blocked.push(`${e.effectiveDirective} blocked ${e.blockedURI === 'inline' || !e.blockedURI ? 'inline code' : e.blockedURI}`))
    })
    const visits: PageVisit[] = []
    const visitOne = async (path: string): Promise<PageVisit> => {
      const page = await context.newPage()
      const loaded: PageVisit['loaded'] = []
      page.on('response', (response) => {
        const type = response.request().resourceType()
        const url = new URL(response.url())
        if ((type === 'script' || type === 'stylesheet') && url.origin === serverUrl) loaded.push({ path: url.pathname.slice(1), type })
      })
      await page.goto(`${serverUrl}/${path.replace(/(^|\/)index\.html$/, '$1')}`)
      // Islands mark themselves ready once started; axe then sees the page a visitor uses.
      await page.waitForFunction(() => [...document.querySelectorAll('[data-island]')].every((el) => el.hasAttribute('data-island-ready')), undefined, { timeout: 10_000 }).catch(() => {})
      // Read before axe runs: axe fetches cross-origin stylesheets itself, which the policy rightly blocks.
      const blocked = await page.evaluate(() => (window as unknown as { __blocked: string[] }).__blocked)
      const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()
      await page.close()
      return {
        path, loaded, blocked,
        violations: violations.map((v) => ({ id: v.id, help: v.help, helpUrl: v.helpUrl, targets: v.nodes.map((n) => n.target.join(' ')) })),
      }
    }
    // A few tabs at once keep both cores busy while one page waits on the network.
    const queue = [...paths]
    await Promise.all(Array.from({ length: TABS }, async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        visits.push(await visitOne(path))
        onVisit?.(visits.length)
      }
    }))
    return visits.sort((a, b) => a.path.localeCompare(b.path))
  } finally {
    await browser.close()
  }
}
