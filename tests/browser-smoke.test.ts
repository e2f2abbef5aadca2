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
