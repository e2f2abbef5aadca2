/** The shipped content: length and language. Its advertising compliance is tested in tests/check/compliance.test.ts. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/index.ts'
import { projectRoot, textOf } from '../support/helpers.ts'

let site: BuildResult
beforeAll(async () => { site = await build({ root: projectRoot, write: false }) })

const source = (path: string) => readFileSync(join(projectRoot, path), 'utf8')
/** Words of a Markdown body, without front matter and link targets. */
const words = (md: string) => md.replace(/^---[\s\S]*?\n---\n/, '').replace(/\]\([^)]*\)/g, ']').match(/[A-Za-z][A-Za-z'’-]*/g)?.length ?? 0
const pages = () => site.table!.routes.map((r) => ({ route: r, html: site.files.find((f) => f.path === r.output)!.contents as string }))
const mainText = (html: string) => textOf(/<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1]!)

describe('length', () => {
  test('every service page has at least 600 words in English', () => {
    for (const r of site.table!.routes.filter((r) => r.template === 'service' && r.locale === 'en')) {
      expect(words(source(r.docId!)), r.docId).toBeGreaterThanOrEqual(600)
    }
  })
  test('every article has 700 to 1,200 words', () => {
    const articles = site.table!.routes.filter((r) => r.template === 'article')
    expect(articles).toHaveLength(13)
    for (const r of articles) {
      const n = words(source(r.docId!))
      expect(n, r.docId).toBeGreaterThanOrEqual(700)
      expect(n, r.docId).toBeLessThanOrEqual(1200)
    }
  })
  test('no page is empty', () => {
    for (const { route, html } of pages()) expect(mainText(html).length, route.url).toBeGreaterThan(route.status === 404 ? 10 : 150)
  })
  test('service pages have at least five questions and a reviewer', () => {
    for (const { route, html } of pages().filter((p) => p.route.template === 'service')) {
      expect(html.match(/class="accordion__heading"/g)?.length ?? 0, route.url).toBeGreaterThanOrEqual(5)
      expect(html, route.url).toMatch(/class="reviewed"/)
      expect(html, route.url).toMatch(/class="disclaimer"/)
    }
  })
})

describe('language', () => {
  test('Chinese pages are written in Chinese, with no English paragraphs', () => {
    for (const { route, html } of pages().filter((p) => p.route.locale === 'cn')) {
      const text = mainText(html)
      expect(text.match(/\p{Script=Han}/gu)?.length ?? 0, route.url).toBeGreaterThan(route.status === 404 ? 4 : 60)
      // Paragraphs marked lang="en" (qualifications as registered) are English on purpose.
      for (const [, p] of html.matchAll(/<p(?![^>]*lang="en")[^>]*>([\s\S]*?)<\/p>/g)) {
        const t = textOf(p!)
        const latin = t.match(/[A-Za-z]/g)?.length ?? 0
        const han = t.match(/\p{Script=Han}/gu)?.length ?? 0
        if (latin > 40) expect(han, `${route.url}: "${t.slice(0, 80)}"`).toBeGreaterThan(latin / 8)
      }
    }
  })
  test('English pages carry no Chinese text outside the language switcher', () => {
    for (const { route, html } of pages().filter((p) => p.route.locale === 'en')) {
      expect(mainText(html).match(/\p{Script=Han}/gu), route.url).toBeNull()
    }
  })
})
