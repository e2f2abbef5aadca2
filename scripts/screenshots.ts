/**
 * npm run screenshots: builds the site, serves it on 127.0.0.1 and saves a full-page screenshot of
 * every page type in both languages at 375, 768 and 1366 px into screenshots/ (ignored by git).
 * The font service is not reached, so the pictures show the fallback fonts.
 * Arguments narrow the set: `npm run screenshots -- cn-home 375` takes only matching names and widths.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { buildSite, launchBrowser, serveFolder } from '../tests/support/browser.ts'
import { projectRoot } from '../tests/support/helpers.ts'
import { offline, PAGE_TYPES } from '../tests/support/design-pages.ts'

const args = process.argv.slice(2)
const wanted = (name: string) => args.filter((a) => !/^\d+$/.test(a)).every((a) => name.includes(a))
const WIDTHS = [375, 768, 1366].filter((w) => !args.some((a) => /^\d+$/.test(a)) || args.includes(String(w)))
const out = join(projectRoot, 'screenshots')
mkdirSync(out, { recursive: true })

const server = await serveFolder(await buildSite())
const browser = await launchBrowser()
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    await offline(context)
    const page = await context.newPage()
    for (const type of PAGE_TYPES.filter((t) => wanted(t.name))) {
      await page.goto(server.url + type.url, { waitUntil: 'networkidle' })
      const file = join(out, `${type.name}-${width}.png`)
      await page.screenshot({ path: file, fullPage: true })
      console.log(file)
    }
    await context.close()
  }
} finally {
  await browser.close()
  await server.close()
}
