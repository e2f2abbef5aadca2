/**
 * Browser test harness: the real site built into a temporary folder, served on 127.0.0.1, and
 * Debian's Chromium driven by playwright-core. Each test file starts and stops what it uses.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { build } from '../src/build.ts'
import { loadHeaderRules, startServer } from '../src/serve/index.ts'
import { projectRoot } from './helpers.ts'

/** Builds a site (the repository's own by default) into a fresh temporary folder. */
export async function buildSite(root = projectRoot): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'clinic-dist-')), 'dist')
  const result = await build({ root, out, cache: false })
  if (!result.ok) throw new Error(`build failed:\n${result.diagnostics.map((d) => `${d.file}: ${d.message}`).join('\n')}`)
  return out
}

export interface RunningServer { url: string; close: () => Promise<void> }

/**
 * Serves a built folder on a free port of 127.0.0.1 with `clinic-build serve`'s server: redirects,
 * 404 pages, caching, compression and the folder's `_headers`, as the site will be served.
 */
export async function serveFolder(dir: string): Promise<RunningServer> {
  const headerRules = await loadHeaderRules(dir, (message) => { throw new Error(message) })
  const { url, close } = await startServer({ dir, port: 0, headerRules })
  return { url, close }
}

/** How every test starts Chromium: Debian's, headless; never a downloaded browser. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumOptions)
}
