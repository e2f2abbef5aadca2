/** Each stage on its own, with literal inputs. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { factsOf, parseBody } from '../src/body.ts'
import { collect } from '../src/collections.ts'
import { formatDiagnostic } from '../src/errors.ts'
import { checkLinks } from '../src/links.ts'
import { checkTemplateKeys, loadMessages } from '../src/messages.ts'
import { parseDoc, parseDocs } from '../src/parse.ts'
import { buildRouteTable } from '../src/routes.ts'
import { parseSite } from '../src/site.ts'
import { robots, sitemap } from '../src/sitemap.ts'
import type { SiteConfig } from '../src/types.ts'
import { projectRoot } from './helpers.ts'

const siteText = readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8')
const site = parseSite({ path: 'content/site.yaml', text: siteText }).site as SiteConfig

const service = (locale: string, slug: string, extra = '') => ({
  path: `content/${locale}/services/${slug}.md`,
  text: `---\ntitle: ${slug}\ndescription: About ${slug}.\nsummary: A summary.\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-15\n${extra}---\n\nBody text.\n`,
})

describe('site configuration', () => {
  test('the shipped configuration is valid', () => {
    expect(site.name).toBe('Amberlin Plastic Surgery Clinic')
    expect(site.locales.map((l) => l.code)).toEqual(['en', 'cn'])
  })
  test('a wrong value is reported at its line', () => {
    const { diagnostics } = parseSite({ path: 'content/site.yaml', text: siteText.replace('baseUrl: https://www.amberlin-clinic.example', 'baseUrl: www.example.sg/') })
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatchObject({ code: 'InvalidSiteConfig', file: 'content/site.yaml', line: 9, column: 10 })
    expect(diagnostics[0]!.message).toContain('"baseUrl" is invalid: must be an origin')
  })
})

describe('parse', () => {
  test('derives locale, path and template from where the file lives', () => {
    const { doc } = parseDoc(service('cn', 'ear'), site)
    expect(doc).toMatchObject({ locale: 'cn', path: '/services/ear/', template: 'service' })
    expect(parseDoc({ path: 'content/en/index.md', text: '---\ntitle: Home\ndescription: D\nintro: I\n---\n' }, site).doc?.template).toBe('home')
  })
  test('a slug in front matter replaces the file name in the URL', () => {
    expect(parseDoc(service('en', 'nose', 'slug: rhinoplasty\n'), site).doc?.path).toBe('/services/rhinoplasty/')
  })
  test('reports invalid YAML with line and column', () => {
    const { diagnostics } = parseDoc({ path: 'content/en/contact.md', text: '---\ntitle: Contact\ndescription: Visit: us\n---\n' }, site)
    expect(diagnostics[0]).toMatchObject({ code: 'InvalidYaml', file: 'content/en/contact.md', line: 3, column: 14 })
  })
  test('reports a missing field and a wrong type at the field', () => {
    const { diagnostics } = parseDoc({ path: 'content/en/services/ear.md', text: '---\ntitle: 12\ndescription: D\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-15\n---\n' }, site)
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      'content/en/services/ear.md:2:8  InvalidFrontMatter  Front matter field "title" must be text, got a number.\n  hint: See "Front matter" in the README for the fields each kind of page takes.',
      'content/en/services/ear.md:1:1  InvalidFrontMatter  Front matter field "summary" is required.\n  hint: See "Front matter" in the README for the fields each kind of page takes.',
    ])
  })
  test('reports an unknown field (a typing mistake)', () => {
    const { diagnostics } = parseDoc(service('en', 'ear', 'reviwedOn: 2026-10-15\n'), site)
    expect(diagnostics[0]!.message).toBe('Front matter field "reviwedOn" is not a known field (a typing mistake?).')
  })
  test('reports an image without alt text at its line in the file', () => {
    const { doc } = parseDoc({ path: 'content/en/privacy.md', text: '---\ntitle: P\ndescription: D\n---\n\nText.\n\n![](/favicon.svg)\n' }, site)
    expect(factsOf(doc!, parseBody(doc!)).diagnostics).toMatchObject([{ code: 'MissingAltText', line: 8, column: 1 }])
  })
  test('reports a reviewer who is not one of the doctors', () => {
    const file = service('en', 'ear')
    const { diagnostics } = parseDoc({ ...file, text: file.text.replace('reviewedBy: dr-evelyn-quah', 'reviewedBy: dr-who') }, site)
    expect(diagnostics).toMatchObject([{ code: 'UnknownDoctor', line: 5 }])
  })
})

describe('route table', () => {
  const table = (files: { path: string; text: string }[]) => {
    const { docs, unreadable } = parseDocs(files, site)
    return buildRouteTable(docs, site, collect(docs, ['en', 'cn']), unreadable)
  }
  test('pairs translations as alternates and adds a 404 page per locale', () => {
    const { table: t, diagnostics } = table([service('en', 'ear'), service('cn', 'ear')])
    expect(diagnostics).toEqual([])
    expect(t.routes.map((r) => r.url)).toEqual(['/404.html', '/cn/404.html', '/cn/services/ear/', '/services/ear/'])
    expect(t.byUrl.get('/cn/services/ear/')).toMatchObject({ output: 'cn/services/ear/index.html', alternates: { en: '/services/ear/', cn: '/cn/services/ear/' } })
  })
  test('two files with one URL are an error naming both', () => {
    const { diagnostics } = table([service('en', 'ear'), service('en', 'otoplasty', 'slug: ear\n'), service('cn', 'ear')])
    expect(diagnostics.map((d) => d.message)).toContain('/services/ear/ is produced by more than one file: content/en/services/ear.md and content/en/services/otoplasty.md.')
  })
  test('a page missing in one locale is an error, except in single-locale sections', () => {
    const article = { path: 'content/en/blog/a.md', text: '---\ntitle: A\ndescription: D\ndate: 2026-01-01\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-02-01\ntags: [a]\n---\n' }
    const { diagnostics } = table([service('en', 'ear'), article])
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'MissingTranslation', file: 'content/en/services/ear.md', message: 'This page has no translation: content/cn/services/ear.md is missing.' })])
  })
  test('the blog index paginates by the configured page size', () => {
    const articles = Array.from({ length: 45 }, (_, i) => ({ path: `content/en/blog/a${i}.md`, text: `---\ntitle: A${i}\ndescription: D\ndate: 2026-01-${String((i % 28) + 1).padStart(2, '0')}\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-02-01\ntags: [a]\n---\n` }))
    const index = { path: 'content/en/blog/index.md', text: '---\ntitle: Articles\ndescription: D\n---\n' }
    const { table: t } = table([index, ...articles])
    expect(t.routes.filter((r) => r.template === 'blog-index').map((r) => [r.url, r.page!.items.length])).toEqual([['/blog/', 20], ['/blog/page/2/', 20], ['/blog/page/3/', 5]])
  })
})

describe('links', () => {
  test('an internal link to no page is an error at the link', () => {
    const { docs } = parseDocs([{ path: 'content/en/privacy.md', text: '---\ntitle: P\ndescription: D\n---\n\nSee [contact](/contact) and [this page](/privacy/#top) and [mail](mailto:a@b.sg).\n' }], site)
    const { table } = buildRouteTable(docs, site, collect(docs, ['en', 'cn']))
    const facts = new Map(docs.map((d) => [d.id, factsOf(d, parseBody(d))]))
    expect(checkLinks(docs, facts, table, [])).toEqual([expect.objectContaining({ code: 'BrokenLink', line: 6, column: 5, message: 'Link to /contact, but no page has that URL.' })])
  })
})

describe('messages', () => {
  test('a key missing in one locale is reported against that file', () => {
    const files = [{ path: 'locales/en-SG.yaml', text: 'nav:\n  home: Home\n  contact: Contact\n' }, { path: 'locales/zh-CN.yaml', text: 'nav:\n  home: 首页\n' }]
    const { diagnostics, messages } = loadMessages(files, site)
    expect(messages.en).toEqual({ 'nav.home': 'Home', 'nav.contact': 'Contact' })
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'MissingMessage', file: 'locales/zh-CN.yaml', message: 'Message "nav.contact" is defined in locales/en-SG.yaml:3 but missing here.' })])
  })
  test('a template asking for an undefined key is reported at the call', () => {
    const found = checkTemplateKeys([{ path: 'templates/X.tsx', text: 'const a = 1\n  <p>{t(\'nav.home\')} {t(\'nav.nope\')}</p>\n' }], { en: { 'nav.home': 'Home' } })
    expect(found).toEqual([expect.objectContaining({ code: 'UnknownMessage', file: 'templates/X.tsx', line: 2, column: 23 })])
  })
})

describe('sitemap and robots', () => {
  test('list indexable pages with their alternates and point at the sitemap', () => {
    const { docs } = parseDocs([service('en', 'ear'), service('cn', 'ear')], site)
    const { table } = buildRouteTable(docs, site, collect(docs, ['en', 'cn']))
    const xml = sitemap(table, site).contents as string
    expect(xml).toContain('<url><loc>https://www.amberlin-clinic.example/services/ear/</loc><xhtml:link rel="alternate" hreflang="en" href="https://www.amberlin-clinic.example/services/ear/"/><xhtml:link rel="alternate" hreflang="zh" href="https://www.amberlin-clinic.example/cn/services/ear/"/><xhtml:link rel="alternate" hreflang="x-default" href="https://www.amberlin-clinic.example/services/ear/"/></url>')
    expect(xml).not.toContain('404')
    expect(robots(site).contents).toBe('User-agent: *\nAllow: /\n\nSitemap: https://www.amberlin-clinic.example/sitemap.xml\n')
  })
})
