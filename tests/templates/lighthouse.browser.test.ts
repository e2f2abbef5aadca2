/**
 * Lighthouse with the mobile settings on every page type in both languages, against the built
 * site served by `clinic-build serve`: accessibility, best practices and SEO stay at 100 and
 * nothing shifts. Performance scores depend on the machine; `npm run audit` reports them.
 */
import type { LaunchedChrome } from 'chrome-launcher'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { audit, NOINDEX_AUDITS, openChromium, PAGE_TYPES, startServe } from '../../scripts/lighthouse.ts'
import { buildSite } from '../support/browser.ts'
import { projectRoot } from '../support/helpers.ts'

let chrome: LaunchedChrome
let server: Awaited<ReturnType<typeof startServe>>
beforeAll(async () => {
  server = await startServe(await buildSite(), projectRoot)
  chrome = await openChromium()
})
afterAll(async () => { await chrome?.kill(); server?.stop() })

describe.each(Object.entries(PAGE_TYPES))('%s', (_type, { path, prefixes, indexable }) => {
  test.each(prefixes)('%s', async (prefix) => {
    // This machine reaches no other origin: the font service is blocked rather than left to fail.
    const result = await audit(chrome, `${server.url}${prefix}${path}`, 'mobile', { blockOtherOrigins: true })
    const failing = (category: string) => result.failing.filter((f) => f.category === category).map((f) => f.id)
    expect(failing('accessibility')).toEqual([])
    expect(failing('best-practices')).toEqual([])
    expect(failing('seo').filter((id) => indexable || !NOINDEX_AUDITS.includes(id))).toEqual([])
    if (indexable) expect(result.scores.seo).toBe(100)
    expect(result.scores.accessibility).toBe(100)
    expect(result.scores['best-practices']).toBe(100)
    expect(result.metrics.cls).toBe(0)
  }, 180_000)
})
