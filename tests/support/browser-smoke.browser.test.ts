/** Chromium on the built site, and the harness every browser test shares (tests/support/browser.ts). */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Browser } from 'playwright-core'
import { buildSite, launchBrowser, serveFolder, type RunningServer } from './browser.ts'

let browser: Browser
let server: RunningServer
beforeAll(async () => {
  server = await serveFolder(await buildSite())
  browser = await launchBrowser()
})
afterAll(async () => { await browser?.close(); await server?.close() })

test('the home page opens in Chromium with its language and one h1', async () => {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(`${server.url}/cn/`)
  expect(await page.getAttribute('html', 'lang')).toBe('zh')
  expect(await page.locator('h1').count()).toBe(1)
  expect(errors).toEqual([])
})

test('a Content-Security-Policy violation in any page fails the test file: the harness browser throws when it closes', async () => {
  const watched = await launchBrowser()
  const page = await watched.newPage()
  await page.goto(`${server.url}/`)
  // Code that is not the site's own: the policy blocks it, and the browser reports it.
  await page.evaluate(() => { const script = document.createElement('script'); script.textContent = 'document.title = "injected"'; document.body.append(script) })
  expect(await page.title()).not.toBe('injected')
  await expect(watched.close()).rejects.toThrow(/Content-Security-Policy violations reported by the browser:\n.*inline script violates/)
})
