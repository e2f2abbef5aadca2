/**
 * What search engines and social networks read: JSON-LD on every page (each type's required
 * properties, matching what the page shows), the blog's feed, the sitemap, and sharing images.
 */
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type BuildResult } from '../../src/index.ts'
import { byTag, readHtml, select, textOf, type HtmlPage } from '../../src/check/html.ts'
import type { Route } from '../../src/types.ts'
import { addArticles, ARTICLES, BILINGUAL_PATHS, copySite, edit, projectRoot } from '../support/helpers.ts'
import { FEED_ENTRIES } from '../../src/seo/feed.ts'

const BASE = 'https://www.amberlin-clinic.example'
const site = parse(readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8')) as {
  name: string; baseUrl: string; phone: string; address: { postalCode: string }
  locales: { code: string; lang: string; hreflang: string; messages: string; ogLocale: string }[]
}
let result: BuildResult
const file = (path: string) => result.files.find((f) => f.path === path)?.contents
const pages = () => result.table!.routes.map((route) => ({ route, page: readHtml(route.output, file(route.output) as string) }))

beforeAll(async () => { result = await build({ root: projectRoot, write: false }) })

type Node = Record<string, unknown> & { '@type': string }

function jsonLd(page: HtmlPage): Node[] {
  const scripts = select(page.doc, (el) => el.name === 'script' && el.attribs.type === 'application/ld+json')
  return scripts.flatMap((s) => (JSON.parse(textOf(s)) as { '@graph': Node[] })['@graph'])
}

/** Required properties per type: Google's for its rich results, ours for what a clinic must state. */
const REQUIRED: Record<string, string[]> = {
  MedicalClinic: ['@id', 'name', 'url', 'logo', 'telephone', 'address', 'geo', 'openingHoursSpecification'],
  BreadcrumbList: ['itemListElement'],
  BlogPosting: ['headline', 'author', 'datePublished', 'dateModified', 'publisher', 'image', 'inLanguage'],
  IndividualPhysician: ['@id', 'name', 'url', 'hasCredential', 'practicesAt'],
  WebPage: ['url', 'inLanguage', 'about'],
  ContactPage: ['url', 'inLanguage', 'about'],
  ProfilePage: ['url', 'inLanguage', 'mainEntity'],
  MedicalWebPage: ['name', 'url', 'reviewedBy', 'lastReviewed', 'inLanguage'],
}
const EXPECTED_TYPES: Partial<Record<Route['template'], string[]>> = {
  home: ['MedicalClinic', 'WebPage'],
  contact: ['MedicalClinic', 'BreadcrumbList', 'ContactPage'],
  service: ['BreadcrumbList', 'MedicalWebPage'],
  article: ['BreadcrumbList', 'BlogPosting', 'MedicalWebPage'],
  doctor: ['BreadcrumbList', 'IndividualPhysician', 'ProfilePage'],
  services: ['BreadcrumbList'],
  'blog-index': ['BreadcrumbList'],
  page: ['BreadcrumbList'],
  'thank-you': ['BreadcrumbList'],
  'not-found': [],
}

const typesIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(typesIn)
  if (value && typeof value === 'object') return [...[(value as Node)['@type']].flat().filter(Boolean) as string[], ...Object.values(value).flatMap(typesIn)]
  return []
}

describe('structured data', () => {
  test('every page carries the types of its kind, each with its required properties, in its language', () => {
    for (const { route, page } of pages()) {
      const nodes = jsonLd(page)
      expect(nodes.map((n) => n['@type']).sort(), route.url).toEqual([...EXPECTED_TYPES[route.template]!].sort())
      const lang = byTag(page.doc, 'html')[0]!.attribs.lang
      for (const node of nodes) {
        for (const property of REQUIRED[node['@type']]!) expect(node[property], `${route.url} ${node['@type']}.${property}`).toBeTruthy()
        // A page (a creative work) states its language; the clinic, a doctor and a trail do not have one.
        const isPage = !['BreadcrumbList', 'MedicalClinic', 'IndividualPhysician'].includes(node['@type'])
        expect(node.inLanguage, `${route.url} ${node['@type']}`).toBe(isPage ? lang : undefined)
      }
      // The page's node names what it is about by the @id of a node beside it.
      const subject = nodes.map((n) => (n.about ?? n.mainEntity) as { '@id': string } | undefined).find(Boolean)
      if (subject) expect(nodes.map((n) => n['@id']), route.url).toContain(subject['@id'])
    }
  })

  test('never Review, AggregateRating or FAQPage, nor a rating anywhere', () => {
    for (const { route, page } of pages()) {
      const types = typesIn(jsonLd(page))
      for (const banned of ['Review', 'AggregateRating', 'FAQPage', 'Rating']) expect(types, route.url).not.toContain(banned)
      expect(page.html, route.url).not.toMatch(/"(review|aggregateRating|reviewRating)"/)
    }
  })

  test('the clinic is described as the page shows it', () => {
    for (const { route, page } of pages().filter((p) => ['home', 'contact'].includes(p.route.template))) {
      const clinic = jsonLd(page).find((n) => n['@type'] === 'MedicalClinic')!
      const text = textOf(page.doc as never)
      expect(text, route.url).toContain(clinic.telephone as string)
      expect(text, route.url).toContain((clinic.address as { postalCode: string }).postalCode)
      expect(clinic.telephone).toBe(site.phone)
      expect(clinic.url).toBe(BASE + (route.locale === 'en' ? '/' : `/${route.locale}/`))
      const hours = clinic.openingHoursSpecification as { dayOfWeek: string[]; opens: string; closes: string }[]
      expect(hours.map((h) => `${h.dayOfWeek.length} ${h.opens}-${h.closes}`)).toEqual(['5 09:00:00-18:00:00', '1 09:00:00-13:00:00'])
      expect(file((clinic.logo as string).replace(BASE + '/', ''))).toBeInstanceOf(Uint8Array)
    }
  })

  test('breadcrumbs run from the home page of the language to the page itself', () => {
    for (const { route, page } of pages().filter((p) => p.route.status === 200 && p.route.path !== '/')) {
      const items = jsonLd(page).find((n) => n['@type'] === 'BreadcrumbList')!.itemListElement as { position: number; name: string; item: string }[]
      expect(items.map((i) => i.position), route.url).toEqual(items.map((_, i) => i + 1))
      expect(items[0]!.item, route.url).toBe(BASE + (route.locale === 'en' ? '/' : `/${route.locale}/`))
      expect(items[0]!.name).toBe(route.locale === 'en' ? 'Home' : '首页')
      expect(items.at(-1)!.item, route.url).toBe(BASE + route.url)
      expect(textOf(byTag(page.doc, 'title')[0]!), route.url).toContain(items.at(-1)!.name)
      for (const item of items) expect(result.table!.byUrl.has(item.item.slice(BASE.length)), item.item).toBe(true)
    }
  })

  test('articles and service pages state their author, reviewer and dates as the page shows them', () => {
    for (const { route, page } of pages().filter((p) => ['article', 'service'].includes(p.route.template))) {
      const nodes = jsonLd(page)
      const medical = nodes.find((n) => n['@type'] === 'MedicalWebPage')!
      const reviewed = select(page.doc, (el) => el.attribs.class === 'reviewed')[0]!
      const reviewer = medical.reviewedBy as { name: string; url: string }
      expect(textOf(byTag(reviewed, 'a')[0]!), route.url).toBe(reviewer.name)
      expect(BASE + byTag(reviewed, 'a')[0]!.attribs.href).toBe(reviewer.url)
      const locale = site.locales.find((l) => l.code === route.locale)!
      const shown = new Intl.DateTimeFormat(locale.messages, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${medical.lastReviewed as string}T00:00:00Z`))
      expect(textOf(reviewed), route.url).toContain(shown)
      expect(medical.name).toBe(textOf(byTag(page.doc, 'h1')[0]!))
      if (route.template !== 'article') continue
      const posting = nodes.find((n) => n['@type'] === 'BlogPosting')!
      const meta = select(page.doc, (el) => el.attribs.class === 'meta')[0]!
      expect(posting.datePublished, route.url).toBe(byTag(meta, 'time')[0]!.attribs.datetime)
      expect((posting.author as { name: string }).name, route.url).toBe(textOf(byTag(meta, 'a')[0]!))
      expect(posting.headline).toBe(textOf(byTag(page.doc, 'h1')[0]!))
      expect(posting.dateModified! >= posting.datePublished!).toBe(true)
    }
  })

  test('doctor pages describe the doctor by their registration', () => {
    for (const { route, page } of pages().filter((p) => p.route.template === 'doctor')) {
      const doctor = jsonLd(page).find((n) => n['@type'] === 'IndividualPhysician')!
      expect(doctor.name, route.url).toBe(textOf(byTag(page.doc, 'h1')[0]!))
      const registration = (doctor.hasCredential as { credentialCategory?: string; identifier?: string; name: string }[]).find((c) => c.credentialCategory === 'registration')!
      expect(textOf(page.doc as never), route.url).toContain(registration.identifier)
      expect(textOf(page.doc as never), route.url).toContain(registration.name)
    }
  })

  test('no value can close the script element', async () => {
    const { jsonLdScript } = await import('../../src/seo/structured-data.ts')
    const text = jsonLdScript([{ '@type': 'Thing', name: '</script><script>alert(1)</script> & \u2028' }])
    expect(text).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(text)['@graph'][0].name).toBe('</script><script>alert(1)</script> & \u2028')
  })
})

describe('feed', () => {
  test('the blog has an Atom feed of its articles, newest first, linked from the English pages', () => {
    const xml = file('blog/feed.xml') as string
    const feed = readHtml('blog/feed.xml', xml)
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true)
    const entries = byTag(feed.doc, 'entry')
    expect(entries).toHaveLength(ARTICLES.length)
    const links = entries.map((e) => byTag(e, 'link')[0]!.attribs.href!)
    expect(links.map((l) => l.replace(`${BASE}/blog/`, '').replace(/\/$/, '')).sort()).toEqual([...ARTICLES].sort())
    const published = entries.map((e) => textOf(byTag(e, 'published')[0]!))
    expect(published).toEqual([...published].sort().reverse())
    for (const e of entries) expect(textOf(byTag(e, 'author')[0]!)).toMatch(/^Dr /)
    expect(select(feed.doc, (el) => el.name === 'link' && el.attribs.rel === 'self')[0]!.attribs.href).toBe(`${BASE}/blog/feed.xml`)
    for (const { route, page } of pages()) {
      const alternates = select(page.doc, (el) => el.name === 'link' && el.attribs.type === 'application/atom+xml')
      expect(alternates.map((l) => l.attribs.href), route.url).toEqual(route.locale === 'en' ? ['/blog/feed.xml'] : [])
    }
  })

  test('a blog of more articles than a feed holds: the feed has the newest of them', async () => {
    const site = addArticles(copySite(), FEED_ENTRIES + 20)
    const built = await build({ root: site, write: false, cache: false })
    const xml = built.files.find((f) => f.path === 'blog/feed.xml')!.contents as string
    const feed = readHtml('blog/feed.xml', xml)
    const entries = byTag(feed.doc, 'entry')
    expect(entries).toHaveLength(FEED_ENTRIES)
    // Every article with its date, newest first: the feed is the first FEED_ENTRIES of them.
    const dated = built.table!.routes.filter((r) => r.template === 'article').map((r) => {
      const html = built.files.find((f) => f.path === r.output)!.contents as string
      return { url: BASE + r.url, date: /"datePublished":"([\d-]+)/.exec(html)![1]! }
    }).sort((a, b) => b.date.localeCompare(a.date) || a.url.localeCompare(b.url))
    const published = entries.map((e) => textOf(byTag(e, 'published')[0]!).slice(0, 10))
    expect(published).toEqual(dated.slice(0, FEED_ENTRIES).map((a) => a.date))
    expect(new Set(entries.map((e) => byTag(e, 'link')[0]!.attribs.href!)).size).toBe(FEED_ENTRIES)
  })
})

describe('sitemap', () => {
  test('lists every indexable page with its alternates, itself and x-default, and leaves out 404 and thank-you pages', () => {
    const sitemap = readHtml('sitemap.xml', file('sitemap.xml') as string)
    const entries = byTag(sitemap.doc, 'url').map((u) => ({
      loc: textOf(byTag(u, 'loc')[0]!),
      alternates: Object.fromEntries(byTag(u, 'xhtml:link').map((l) => [l.attribs.hreflang!, l.attribs.href!])),
    }))
    const indexable = result.table!.routes.filter((r) => r.status === 200 && r.template !== 'thank-you')
    expect(entries.map((e) => e.loc).sort()).toEqual(indexable.map((r) => BASE + r.url).sort())
    for (const entry of entries) {
      const route = result.table!.byUrl.get(entry.loc.slice(BASE.length))!
      if (Object.keys(route.alternates).length < 2) { expect(entry.alternates, entry.loc).toEqual({}); continue }
      expect(Object.values(entry.alternates), entry.loc).toContain(entry.loc)
      expect(entry.alternates['x-default'], entry.loc).toBe(BASE + route.alternates.en)
      expect(Object.keys(entry.alternates).sort()).toEqual(['en', 'x-default', 'zh'])
      // Each alternate lists this page back.
      for (const url of Object.values(entry.alternates)) {
        expect(Object.values(entries.find((e) => e.loc === url)!.alternates), url).toContain(entry.loc)
      }
    }
  })

  test('404 and thank-you pages are noindex; every other page is indexable', () => {
    for (const { route, page } of pages()) {
      const robots = select(page.doc, (el) => el.name === 'meta' && el.attribs.name === 'robots')[0]?.attribs.content
      expect(robots, route.url).toBe(route.status === 404 || route.template === 'thank-you' ? 'noindex' : undefined)
    }
  })
})

describe('sharing images', () => {
  test('every page shares the 1200 x 630 image of its page type and language, with alt text', async () => {
    const shared = new Map<string, string>()
    for (const { route, page } of pages()) {
      const meta = (property: string) => select(page.doc, (el) => el.name === 'meta' && el.attribs.property === property)[0]?.attribs.content
      const url = meta('og:image')!
      expect(url, route.url).toBe(`${BASE}/og/${route.template}-${route.locale}.png`)
      expect([meta('og:image:width'), meta('og:image:height')]).toEqual(['1200', '630'])
      expect(meta('og:image:alt')!.length, route.url).toBeGreaterThan(10)
      shared.set(url, route.template)
    }
    expect(new Set(shared.values()).size).toBe(Object.keys(EXPECTED_TYPES).length)
    for (const url of shared.keys()) {
      const png = file(url.slice(BASE.length + 1)) as Uint8Array
      const { width, height, format } = await sharp(png).metadata()
      expect([format, width, height], url).toEqual(['png', 1200, 630])
    }
    const logo = await sharp(file('og/logo.png') as Uint8Array).metadata()
    expect([logo.width, logo.height]).toEqual([512, 512])
  })

  // Drawn whole, a label of 100,000 characters kept the image library busy for minutes: past the test's time limit.
  test('a label of 100,000 characters is cut to what the image shows, and the site builds at once', async () => {
    const site = copySite()
    edit(site, 'locales/en-SG.yaml', (yaml) => yaml.replace('  services: Services\n', `  services: ${'Services '.repeat(11_112)}\n`))
    const long = await build({ root: site, out: join(site, 'dist'), write: false, cache: false })
    expect(long.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    const card = long.files.find((f) => f.path === 'og/services-en.png')!.contents as Uint8Array
    expect((await sharp(card).metadata()).width).toBe(1200)
  })
})

describe('Open Graph and hreflang', () => {
  /** The front matter of a content file, as the editor wrote it. */
  const frontMatter = (file: string) => parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(join(projectRoot, file), 'utf8'))![1]!) as { title: string; description: string }
  const pageAt = (url: string) => {
    const route = result.table!.byUrl.get(url)!
    return readHtml(route.output, file(route.output) as string)
  }
  const metas = (page: HtmlPage, property: string) => select(page.doc, (el) => el.name === 'meta' && el.attribs.property === property).map((el) => el.attribs.content)
  const ogLocale = (code: string) => site.locales.find((l) => l.code === code)!.ogLocale

  const cases = [
    { url: '/', source: 'content/en/index.md', locale: 'en', other: 'cn', type: 'website', home: true },
    { url: '/cn/', source: 'content/cn/index.md', locale: 'cn', other: 'en', type: 'website', home: true },
    { url: '/services/rhinoplasty/', source: 'content/en/services/rhinoplasty.md', locale: 'en', other: 'cn', type: 'website' },
    { url: '/cn/services/rhinoplasty/', source: 'content/cn/services/rhinoplasty.md', locale: 'cn', other: 'en', type: 'website' },
    { url: '/blog/how-to-prepare-for-a-rhinoplasty/', source: 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md', locale: 'en', other: undefined, type: 'article' },
  ]
  test.each(cases)('$url shares the title and description of its front matter, its canonical URL and its locales', ({ url, source, locale, other, type, home }) => {
    const page = pageAt(url)
    const { title, description } = frontMatter(source)
    // The home page is titled with the company name alone (content/site.yaml); others "<title> | <company>".
    const expectedTitle = home ? site.name : `${title} | ${site.name}`
    expect(metas(page, 'og:title')).toEqual([expectedTitle])
    expect(textOf(byTag(page.doc, 'title')[0]!)).toBe(expectedTitle)
    expect(metas(page, 'og:description')).toEqual([description])
    expect(select(page.doc, (el) => el.name === 'meta' && el.attribs.name === 'description').map((el) => el.attribs.content)).toEqual([description])
    const canonical = select(page.doc, (el) => el.name === 'link' && el.attribs.rel === 'canonical').map((el) => el.attribs.href)
    expect(canonical).toEqual([site.baseUrl + url])
    expect(metas(page, 'og:url')).toEqual(canonical)
    expect(metas(page, 'og:type')).toEqual([type])
    expect(metas(page, 'og:site_name')).toEqual([site.name])
    expect(metas(page, 'og:locale')).toEqual([ogLocale(locale)])
    // The blog is English only: no other language to offer.
    expect(metas(page, 'og:locale:alternate')).toEqual(other ? [ogLocale(other)] : [])
  })

  test('a page in both languages lists the absolute URL of each language and x-default, the same on both', () => {
    const hreflang = (code: string) => site.locales.find((l) => l.code === code)!.hreflang
    for (const path of BILINGUAL_PATHS) {
      const expected = [
        [hreflang('en'), `${site.baseUrl}${path}`],
        [hreflang('cn'), `${site.baseUrl}/cn${path}`],
        ['x-default', `${site.baseUrl}${path}`],
      ]
      for (const url of [path, `/cn${path}`]) {
        const links = select(pageAt(url).doc, (el) => el.name === 'link' && el.attribs.rel === 'alternate' && el.attribs.hreflang !== undefined)
        expect(links.map((l) => [l.attribs.hreflang, l.attribs.href]), url).toEqual(expected)
      }
    }
    expect([hreflang('en'), hreflang('cn')]).toEqual(['en', 'zh'])
  })
})
