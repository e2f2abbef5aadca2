/**
 * A lower bound for `clinic-build check --all`: what Chromium and axe-core alone take to load a
 * built page and judge it with the check's rules, as many tabs at once as the check opens, with
 * its switches, and nothing else of the check (no wait for islands, no listener for the security
 * policy, no record of what a page loads, no link check or content rules beside it).
 */
import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { AXE_TAGS, axeSource, chromiumArgs, TABS } from '../src/check/browser.ts'
import { CHROMIUM } from '../src/check/chromium.ts'
import { loadHeaderRules, startServer } from '../src/serve/index.ts'
import { urlOfOutput } from '../src/shared/urls.ts'

const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')

export interface BrowserFloor {
  /** Pages opened: `sample` of the folder's, spread evenly over them in path order. */
  pages: number
  /** From the first page opened to the last judged, over `pages`. */
  secondsPerPage: number
}

export async function browserFloor(out: string, sample = 200): Promise<BrowserFloor> {
  const all = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.html')).sort()
  const step = Math.max(1, all.length / sample)
  const chosen = Array.from({ length: Math.min(sample, all.length) }, (_, i) => all[Math.floor(i * step)]!)
  const server = await startServer({ dir: out, port: 0, unchanging: true, compress: false, headerRules: await loadHeaderRules(out, () => {}) })
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs(server.url) })
  try {
    const context = await browser.newContext()
    await context.addInitScript({ content: axeSource() })
    const tabs = await Promise.all(Array.from({ length: TABS }, () => context.newPage()))
    const queue = [...chosen]
    const started = performance.now()
    await Promise.all(tabs.map(async (tab) => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        await tab.goto(`${server.url}${urlOfOutput(path)}`)
        await tab.evaluate((tags) => (window as unknown as { axe: { run: (d: Document, o: object) => Promise<unknown> } }).axe
          .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false }), AXE_TAGS)
      }
    }))
    return { pages: chosen.length, secondsPerPage: (performance.now() - started) / 1000 / chosen.length }
  } finally {
    await browser.close()
    await server.close()
  }
}
