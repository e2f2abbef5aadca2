/**
 * The content editor's configuration is made from the front matter schemas and site.yaml: every
 * field of every kind of page, with its widget, whether it is required, its allowed values and its
 * help text; the languages as site.yaml lists them; nothing kept by hand.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { describe, expect, test } from 'vitest'
import { adminConfig, EDITOR_COLLECTIONS, type AdminConfig, type DecapCollection } from '../../src/admin/config.ts'
import { editorFields, NOT_EDITED } from '../../src/admin/fields.ts'
import { frontMatterSchemas, templateFor } from '../../src/content/schemas/front-matter.ts'
import { parseSite } from '../../src/content/site.ts'
import type { SiteConfig } from '../../src/types.ts'
import { copyPackage, copySite, edit, projectRoot, runCli } from '../support/helpers.ts'

const siteText = readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8')
/** site.yaml with another `admin` section in place of its own. */
const withAdmin = (section: string) => `${siteText.replace(/\nadmin:\n(  .*\n)*/, '\n')}${section}\n`
const siteOf = (text: string): SiteConfig => {
  const { site, diagnostics } = parseSite({ path: 'content/site.yaml', text })
  if (!site) throw new Error(diagnostics.map((d) => d.message).join('\n'))
  return site
}
const site = siteOf(siteText)
const config = adminConfig(site)!
const collection = (name: string) => config.decap.collections.find((c) => c.name === name)!
const field = (c: DecapCollection, name: string) => c.fields.find((f) => f.name === name)!

describe('the editor\'s collections', () => {
  test('one per kind of page: services, doctors, plain pages, articles; and one per single page', () => {
    expect(config.decap.collections.map((c) => c.name)).toEqual(['services', 'doctors', 'pages', 'articles', 'home-page', 'services-page', 'contact-page', 'thank-you-page', 'blog-page'])
    expect(config.layout.map((l) => l.template)).toEqual(['service', 'doctor', 'page', 'article', 'home', 'services', 'contact', 'thank-you', 'blog-index'])
  })

  test('a single page is its language\'s one file: home, services, contact and thank-you in every language, the blog\'s in English', () => {
    expect(config.layout.filter((l) => l.files).map((l) => [l.collection, l.files!['page.md'], l.locales.join()])).toEqual([
      ['home-page', 'index.md', 'en,cn'], ['services-page', 'services/index.md', 'en,cn'], ['contact-page', 'contact.md', 'en,cn'],
      ['thank-you-page', 'thank-you.md', 'en,cn'], ['blog-page', 'blog/index.md', 'en'],
    ])
    expect(collection('home-page')).toMatchObject({ create: false, i18n: true })
    expect(collection('home-page').fields.map((f) => f.name)).toContain('intro') // the home page's own field
    expect(collection('blog-page').i18n).toEqual({ locales: ['en'], default_locale: 'en' })
  })

  test('each section named is where templateFor finds that kind of page', () => {
    for (const c of EDITOR_COLLECTIONS) {
      const place = 'section' in c.place ? `${c.place.section}/a-page` : 'a-page'
      if (c.template !== 'doctor') expect(templateFor(place)).toBe(c.template)
    }
  })

  test('every field of each kind\'s schema is in its collection, in the schema\'s order, the body last', () => {
    const schemas = frontMatterSchemas()
    const fieldsOf = (template: keyof typeof schemas) => [...Object.keys(schemas[template].shape).filter((name) => !(name in NOT_EDITED)), 'body']
    for (const c of config.layout) expect(collection(c.collection).fields.map((f) => f.name), c.collection).toEqual(fieldsOf(c.template))
  })

  test('fields say whether they are required, what they allow and what they are for', () => {
    const services = collection('services')
    expect(field(services, 'title')).toMatchObject({ widget: 'string', required: true, i18n: true })
    expect(field(services, 'title').hint).toMatch(/heading/)
    expect(field(services, 'order')).toMatchObject({ widget: 'number', value_type: 'int', required: false, i18n: 'duplicate' })
    expect(field(services, 'slug').pattern).toEqual(['^[a-z0-9-]+$', 'This must be lower-case letters, digits and hyphens.'])
    expect(field(services, 'description').pattern).toEqual(['^[\\s\\S]{0,200}$', 'This must be at most 200 characters.'])
    expect(field(services, 'reviewedOn')).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DD', time_format: false })
    const articles = collection('articles')
    expect(field(articles, 'author')).toMatchObject({ widget: 'select', options: site.doctors.map((d) => d.slug), required: true })
    expect(field(articles, 'tags')).toMatchObject({ widget: 'list', min: 1, i18n: true })
    expect(field(collection('doctors'), 'memberships')).toMatchObject({ widget: 'list', required: false, default: [] })
    for (const c of config.decap.collections) for (const f of c.fields) expect(f.hint, `${c.name}.${f.name}`).toBeTruthy()
  })

  test('free text is written in each language; names, dates, choices and numbers are shared', () => {
    const services = collection('services')
    expect(['title', 'description', 'summary', 'body'].map((n) => field(services, n).i18n)).toEqual([true, true, true, true])
    expect(['slug', 'reviewedBy', 'reviewedOn', 'order', 'draft'].map((n) => field(services, n).i18n)).toEqual(Array(5).fill('duplicate'))
  })
})

describe('the editors\' guide', () => {
  test('names every field the editor shows in its Front matter table', () => {
    const guide = readFileSync(join(projectRoot, 'docs/editors.md'), 'utf8')
    const table = /\n## Front matter\n([\s\S]*?)\n## /.exec(guide)![1]!
    const rows = table.split('\n').filter((line) => line.startsWith('| `')).map((line) => line.split('|')[1]!)
    const named = new Set(rows.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)))
    const fields = new Set(config.decap.collections.flatMap((c) => c.fields.map((f) => f.name)).filter((name) => name !== 'body'))
    expect([...fields].filter((name) => !named.has(name))).toEqual([])
  })
})

describe('languages come from site.yaml', () => {
  test('every locale, the default first; articles only in the language singleLocaleSections names', () => {
    expect(config.decap.i18n).toEqual({ structure: 'multiple_folders', locales: ['en', 'cn'], default_locale: 'en' })
    expect(collection('services').i18n).toBe(true)
    expect(collection('articles').i18n).toEqual({ locales: ['en'], default_locale: 'en' })
  })

  test('a third language and another single-language section change the configuration, not the code', () => {
    const three = siteOf(siteText
      .replace("  - { code: cn, lang: zh, hreflang: zh, messages: zh-CN, ogLocale: zh_CN }", "  - { code: cn, lang: zh, hreflang: zh, messages: zh-CN, ogLocale: zh_CN }\n  - { code: ms, lang: ms, hreflang: ms, messages: ms-MY, ogLocale: ms_MY }")
      .replace('singleLocaleSections: { blog: en }', 'singleLocaleSections: { blog: cn }'))
    const made = adminConfig(three)!
    expect(made.decap.i18n.locales).toEqual(['en', 'cn', 'ms'])
    expect(made.decap.collections.find((c) => c.name === 'articles')!.i18n).toEqual({ locales: ['cn'], default_locale: 'cn' })
    expect(made.layout.find((l) => l.collection === 'services')!.locales).toEqual(['en', 'cn', 'ms'])
  })
})

describe('a field added to a schema', () => {
  test('appears in the editor with its type, requirement, allowed values and help text', () => {
    const article = frontMatterSchemas().article.extend({
      procedureLength: z.enum(['short', 'long']).meta({ description: 'How long the procedure takes.' }),
      sponsor: z.string().optional().meta({ description: 'Who paid for the article.' }),
    })
    const fields = editorFields(article, site)
    expect(fields.find((f) => f.name === 'procedureLength')).toEqual({
      name: 'procedureLength', label: 'Procedure length', widget: 'select', options: ['short', 'long'], required: true,
      hint: 'How long the procedure takes.', i18n: 'duplicate',
    })
    expect(fields.find((f) => f.name === 'sponsor')).toMatchObject({ widget: 'string', required: false, hint: 'Who paid for the article.', i18n: true })
  })
})

describe('a field added to the schema in the source', () => {
  test('is in the built editor\'s configuration, with nothing else changed', async () => {
    const pkg = copyPackage()
    const site = copySite()
    edit(pkg, 'src/content/schemas/front-matter.ts', (t) => t.replace(
      "tags: help(z.array(text).min(1),",
      "sponsor: help(text.optional(), 'Who paid for the article, if anyone.'),\n      tags: help(z.array(text).min(1),",
    ))
    const built = await runCli(['--root', site, '--out', join(site, 'dist')], site, join(pkg, 'bin/clinic-build.js'))
    expect(built.status, built.stderr).toBe(0)
    const made = JSON.parse(readFileSync(join(site, 'dist/admin/config.json'), 'utf8')) as AdminConfig
    const articles = made.decap.collections.find((c) => c.name === 'articles')!
    expect(articles.fields.map((f) => f.name)).toEqual(['title', 'description', 'slug', 'draft', 'reviewedBy', 'reviewedOn', 'date', 'author', 'sponsor', 'tags', 'body'])
    expect(field(articles, 'sponsor')).toEqual({ name: 'sponsor', label: 'Sponsor', widget: 'string', required: false, hint: 'Who paid for the article, if anyone.', i18n: true })
  }, 120_000)
})

describe('backends', () => {
  const backendOf = (admin: string): AdminConfig['decap']['backend'] => adminConfig(siteOf(withAdmin(admin)))!.decap.backend

  test('GitHub or Netlify\'s Git Gateway, as site.yaml says, with the editorial workflow', () => {
    expect(config.decap.publish_mode).toBe('editorial_workflow')
    expect(backendOf('admin:\n  backend: { name: github, repo: amberlin/website, branch: live }')).toEqual({ name: 'github', repo: 'amberlin/website', branch: 'live' })
    expect(backendOf('admin:\n  backend: { name: github, repo: amberlin/website, authUrl: "https://auth.amberlin.example" }')).toEqual({ name: 'github', repo: 'amberlin/website', branch: 'main', base_url: 'https://auth.amberlin.example' })
    expect(backendOf('admin:\n  backend: { name: git-gateway }')).toEqual({ name: 'git-gateway', branch: 'main' })
  })

  test('admin: false leaves the editor out', () => {
    expect(adminConfig(siteOf(withAdmin('admin: false')))).toBeUndefined()
  })

  test('a wrong admin section is an InvalidSiteConfig error naming the field and its line', () => {
    const problems = (admin: string) => parseSite({ path: 'content/site.yaml', text: withAdmin(admin) }).diagnostics
    const lines = withAdmin('').split('\n').length - 1
    expect(problems('admin:\n  backend: { name: github, repo: website }')).toMatchObject([
      { code: 'InvalidSiteConfig', file: 'content/site.yaml', line: lines + 1, message: expect.stringMatching(/"admin\.backend\.repo" is invalid: must name the repository as owner\/name/) },
    ])
    expect(problems('admin:\n  backend: { name: gitlab }')).toMatchObject([{ code: 'InvalidSiteConfig', line: lines + 1, message: expect.stringContaining('"admin.backend.name"') }])
    expect(problems('admin: yes')).toMatchObject([{ code: 'InvalidSiteConfig', line: lines, message: expect.stringContaining('"admin"') }])
  })
})
