/** The shipped content: length, language, and Singapore's rules on clinic advertising. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../src/index.ts'
import { projectRoot, textOf } from './helpers.ts'

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

describe('advertising rules', () => {
  const rules = parse(source('src/compliance/forbidden-phrases.yaml')) as Record<string, { en: string[]; zh: string[] }>
  test('the list covers each kind of forbidden claim in both languages', () => {
    expect(Object.keys(rules).sort()).toEqual(['BEFORE_AFTER', 'COMPARISON', 'ENDORSEMENT', 'FEAR_APPEAL', 'GUARANTEE', 'PRICE_FORM', 'PROMOTION', 'SUPERLATIVE', 'TESTIMONIAL'])
    for (const rule of Object.values(rules)) expect(rule.en.length * rule.zh.length).toBeGreaterThan(0)
  })
  test('the check finds a forbidden phrase', () => {
    expect(findings('Our award-winning team guarantees the best results, 立竿见影。').sort()).toEqual(['GUARANTEE "guarantees"', 'GUARANTEE "立竿见影"', 'SUPERLATIVE "award-winning"', 'SUPERLATIVE "best"'])
  })
  test('no built page contains a forbidden phrase', () => {
    for (const { route, html } of pages()) {
      const title = /<title>([^<]*)/.exec(html)![1]!
      const description = /<meta name="description" content="([^"]*)"/.exec(html)![1]!
      expect(findings(`${title}\n${description}\n${textOf(html)}`), route.url).toEqual([])
    }
  })

  function findings(text: string): string[] {
    return Object.entries(rules).flatMap(([id, rule]) => [
      ...rule.en.flatMap((p) => [...text.matchAll(new RegExp(`\\b(?:${p})\\b`, 'gi'))].map((m) => `${id} "${m[0]}"`)),
      ...rule.zh.flatMap((p) => [...text.matchAll(new RegExp(p, 'g'))].map((m) => `${id} "${m[0]}"`)),
    ])
  }
})
