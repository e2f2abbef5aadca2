/**
 * The browser the check drives: CHROMIUM_PATH, else Debian's headless shell of Chromium, else
 * Debian's Chromium. The shell is the same Blink and V8 without the desktop browser around them
 * (what Playwright itself runs for headless pages): it opens and judges a page in about two thirds
 * of the time, and finds the same (tests/check/planted.browser.test.ts holds the two to that).
 * Kept apart from browser.ts, which loads playwright-core: the main thread names the browser in
 * the report without loading it.
 */
import { existsSync } from 'node:fs'

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/** The browser to drive, as the report names it: with a hint when the check falls back to Chromium itself. */
export function chooseBrowser(chosen = process.env.CHROMIUM_PATH, installed: (path: string) => boolean = existsSync): { path: string; hint?: string } {
  if (chosen !== undefined) return { path: chosen }
  if (installed(HEADLESS_SHELL)) return { path: HEADLESS_SHELL }
  return { path: DEBIAN_CHROMIUM, hint: "Debian's headless shell of Chromium opens them in about two thirds of the time: apt-get install chromium-headless-shell" }
}

/** Made as the module loads; the visits' thread makes the same choice from the same environment and disk. */
export const BROWSER = chooseBrowser()
export const CHROMIUM = BROWSER.path
