/**
 * Lighthouse (the npm package) on pages of a running site, with Debian's Chromium. Shared by
 * `npm run audit` and the test that keeps the stable categories at 100.
 */
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { launch, type LaunchedChrome } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'

export type Mode = 'mobile' | 'desktop'
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
export type Category = (typeof CATEGORIES)[number]

export interface AuditResult {
  url: string
  mode: Mode
  /** 0–100 per category that was run. */
  scores: Partial<Record<Category, number>>
  /** Milliseconds, except CLS (unitless) and transfer (bytes); absent without the performance category. */
  metrics: { lcp?: number; cls?: number; tbt?: number; transfer?: number }
  /** Audits below a perfect score, for finding what to fix. Example: 'color-contrast' */
  failing: { id: string; category: Category; title: string }[]
}

const bin = join(resolve(import.meta.dirname, '..'), 'bin/clinic-build.js')

/** `clinic-build serve` on a built folder, as a real process on 127.0.0.1; resolves with its URL. */
export async function startServe(out: string, root: string): Promise<{ url: string; stop: () => void }> {
  const server = spawn(process.execPath, [bin, 'serve', '--out', out, '--root', root, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((ready, fail) => {
    server.stdout.setEncoding('utf8').on('data', (text: string) => {
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1]
      if (found) ready(found)
    })
    server.on('exit', (code) => fail(new Error(`clinic-build serve stopped (exit ${code})`)))
  })
  return { url, stop: () => server.kill('SIGINT') }
}

/** One page of each type; each is audited in every language it exists in ('' is the default). */
export const PAGE_TYPES: Record<string, { path: string; prefixes: string[]; indexable: boolean }> = {
  home: { path: '/', prefixes: ['', '/cn'], indexable: true },
  services: { path: '/services/', prefixes: ['', '/cn'], indexable: true },
  service: { path: '/services/rhinoplasty/', prefixes: ['', '/cn'], indexable: true },
  doctor: { path: '/dr-evelyn-quah/', prefixes: ['', '/cn'], indexable: true },
  contact: { path: '/contact/', prefixes: ['', '/cn'], indexable: true },
  privacy: { path: '/privacy/', prefixes: ['', '/cn'], indexable: true },
  'blog index': { path: '/blog/', prefixes: [''], indexable: true },
  article: { path: '/blog/how-to-prepare-for-a-rhinoplasty/', prefixes: [''], indexable: true },
  // Kept out of search engines on purpose (noindex), so Lighthouse's "page is crawlable" audit fails
  // there by design. Lighthouse refuses to audit a page answered with status 404, so the 404 pages
  // are audited at their own addresses, where the same markup answers 200.
  'thank-you': { path: '/thank-you/', prefixes: ['', '/cn'], indexable: false },
  '404': { path: '/404.html', prefixes: ['', '/cn'], indexable: false },
}

/** SEO audits that fail by design on pages kept out of search engines. */
export const NOINDEX_AUDITS = ['is-crawlable', 'http-status-code']

export async function openChromium(): Promise<LaunchedChrome> {
  return launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  })
}

/**
 * Every request to another origin (the font service, the tag manager), for machines that reach
 * none: Lighthouse blocks them through DevTools, and its console audit ignores what it blocked
 * itself, while a request that failed on its own would count as a console error.
 */
const OTHER_ORIGINS = ['https://*']

export interface AuditOptions { categories?: readonly Category[]; blockOtherOrigins?: boolean }

export async function audit(chrome: LaunchedChrome, url: string, mode: Mode, { categories = CATEGORIES, blockOtherOrigins = false }: AuditOptions = {}): Promise<AuditResult> {
  const flags = {
    port: chrome.port, logLevel: 'error' as const, output: 'json' as const, onlyCategories: [...categories],
    blockedUrlPatterns: blockOtherOrigins ? OTHER_ORIGINS : [],
  }
  const run = await lighthouse(url, flags, mode === 'desktop' ? desktopConfig : undefined)
  if (!run) throw new Error(`Lighthouse returned nothing for ${url}`)
  const { lhr } = run
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`)
  const scores: AuditResult['scores'] = {}
  const failing: AuditResult['failing'] = []
  for (const id of categories) {
    const category = lhr.categories[id]
    if (!category) continue
    scores[id] = Math.round((category.score ?? 0) * 100)
    for (const ref of category.auditRefs) {
      const result = lhr.audits[ref.id]
      if (ref.weight > 0 && result && result.score !== null && result.score < 1) failing.push({ id: ref.id, category: id, title: result.title })
    }
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue
  return {
    url, mode, scores, failing,
    metrics: { lcp: numeric('largest-contentful-paint'), cls: numeric('cumulative-layout-shift'), tbt: numeric('total-blocking-time'), transfer: numeric('total-byte-weight') },
  }
}
