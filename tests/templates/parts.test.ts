/**
 * Shared elements in the built HTML of both languages: the WhatsApp button, the sidebar beside
 * articles and services, and the doctor profile block. What each must show is read from the site's
 * own files (site.yaml, the locale files, front matter), after the copy changes some of them, so
 * that a value written into a template instead could not pass.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import matter from 'gray-matter'
import { beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { build, type BuildResult } from '../../src/build/build.ts'
import { readHtml, select, textOf, type HtmlDocument, type HtmlElement } from '../../src/check/html.ts'
import { copySite, DOCTORS, edit } from '../support/helpers.ts'

const NUMBER = '6590001234'
/** An English message with characters that must be encoded in a query string. */
const PREFILL_EN = 'Hello & good day: may I ask about a consultation?'
const QUALIFICATION = 'MSc (Wound Healing) (Sample)'

let site: string
let result: BuildResult
const LOCALES = { en: { messages: 'en-SG', prefix: '' }, cn: { messages: 'zh-CN', prefix: '/cn' } } as const
type Locale = keyof typeof LOCALES
let messages: Record<Locale, Record<string, Record<string, string>>>

beforeAll(async () => {
  site = copySite()
  edit(site, 'content/site.yaml', (t) => t.replace(/^whatsapp: "\d+"/m, `whatsapp: "${NUMBER}"`))
  edit(site, 'locales/en-SG.yaml', (t) => t.replace(/^( {2}prefill: ).*$/m, `$1"${PREFILL_EN}"`))
  for (const locale of ['en', 'cn']) {
    edit(site, `content/${locale}/dr-nathaniel-goh.md`, (t) => t.replace(/^(qualifications: \[.*)\]$/m, `$1, ${QUALIFICATION}]`))
  }
  messages = {
    en: parse(readFileSync(join(site, 'locales/en-SG.yaml'), 'utf8')),
    cn: parse(readFileSync(join(site, 'locales/zh-CN.yaml'), 'utf8')),
  }
  result = await build({ root: site, write: false })
  expect(result.ok).toBe(true)
})

const t = (locale: Locale, key: string) => {
  const [group, name] = key.split('.') as [string, string]
  return messages[locale][group]![name]!
}
const page = (path: string): HtmlDocument => {
  const file = result.files.find((f) => f.path === path)
  if (!file) throw new Error(`${path} was not built`)
  return readHtml(path, String(file.contents)).doc
}
/** Elements with the given tag and class. */
const find = (root: HtmlDocument | HtmlElement, tag: string, className: string) =>
  select(root, (el) => el.name === tag && (el.attribs.class ?? '').split(/\s+/).includes(className))
/** Whether a root-relative link leads to a page of the build. */
const built = (href: string) => result.files.some((f) => f.path === `${href.slice(1)}index.html`)
/** Where a locale's pages are in the output: '' or 'cn/'. */
const dir = (locale: Locale) => (locale === 'cn' ? 'cn/' : '')
const frontMatter = (locale: Locale, slug: string) => matter(readFileSync(join(site, `content/${locale}/${slug}.md`), 'utf8')).data

describe('the WhatsApp button', () => {
  test('is on every page of both languages, opening wa.me with the configured number and the message in the page\'s language', () => {
    const pages = result.files.filter((f) => f.path.endsWith('.html') && !f.path.startsWith('admin/')) // the content editor is no page
    expect(pages.filter((f) => f.path.startsWith('cn/')).length).toBeGreaterThan(10)
    for (const file of pages) {
      const doc = page(file.path)
      const locale: Locale = select(doc, (el) => el.name === 'html')[0]!.attribs.lang === 'zh' ? 'cn' : 'en'
      const buttons = find(doc, 'a', 'button--whatsapp')
      expect(buttons.length, file.path).toBeGreaterThan(0)
      for (const button of buttons) {
        const href = new URL(button.attribs.href!)
        expect([href.origin, href.pathname, [...href.searchParams]], file.path).toEqual(['https://wa.me', `/${NUMBER}`, [['text', t(locale, 'whatsapp.prefill')]]])
        expect(button.attribs.href, file.path).toBe(`https://wa.me/${NUMBER}?text=${encodeURIComponent(t(locale, 'whatsapp.prefill'))}`)
        expect([button.attribs.target, button.attribs.rel], file.path).toEqual(['_blank', 'noopener'])
        expect(textOf(button), file.path).toBe(`${t(locale, 'whatsapp.label')} ${t(locale, 'nav.newTab')}`)
      }
    }
    // The messages themselves: each in its own language.
    expect(t('en', 'whatsapp.prefill')).toBe(PREFILL_EN)
    expect(t('cn', 'whatsapp.prefill')).toMatch(/^[\p{Script=Han}，。、]+$/u)
  })

  test('a number written with spaces or a plus sign is refused, so the link can never break', async () => {
    const copy = copySite()
    edit(copy, 'content/site.yaml', (text) => text.replace(/^whatsapp: "\d+"/m, 'whatsapp: "+65 8100 2030"'))
    const refused = await build({ root: copy, write: false })
    expect(refused.ok).toBe(false)
    expect(refused.diagnostics).toMatchObject([{ code: 'InvalidSiteConfig', severity: 'error', file: 'content/site.yaml', message: expect.stringContaining('"whatsapp"') }])
  })
})

describe('the sidebar', () => {
  const SIDEBARS = [
    { path: 'blog/how-to-prepare-for-a-rhinoplasty/index.html', locale: 'en', self: '/blog/how-to-prepare-for-a-rhinoplasty/' },
    { path: 'services/rhinoplasty/index.html', locale: 'en', self: '/services/rhinoplasty/' },
    { path: 'cn/services/rhinoplasty/index.html', locale: 'cn', self: '/cn/services/rhinoplasty/' },
  ] as const

  /** The sidebar's lists by heading, and its call to action. */
  const sidebarOf = (path: string) => {
    const asides = find(page(path), 'aside', 'sidebar')
    expect(asides, path).toHaveLength(1)
    const aside = asides[0]!
    const lists = Object.fromEntries(find(aside, 'nav', 'sidebar__block').map((nav) => [
      textOf(select(nav, (el) => el.name === 'h2')[0]!),
      select(nav, (el) => el.name === 'a').map((a) => ({ href: a.attribs.href!, text: textOf(a), lang: a.attribs.lang, hreflang: a.attribs.hreflang })),
    ]))
    return { aside, lists, cta: find(aside, 'div', 'sidebar__cta')[0] }
  }

  test.each(SIDEBARS)('beside $path: related services and articles that exist, and a call to action', ({ path, locale, self }) => {
    const { aside, lists, cta } = sidebarOf(path)
    expect(aside.attribs['aria-label']).toBe(t(locale, 'sidebar.label'))
    expect(Object.keys(lists)).toEqual([t(locale, 'sidebar.services'), t(locale, 'sidebar.articles')])
    const services = lists[t(locale, 'sidebar.services')]!
    const articles = lists[t(locale, 'sidebar.articles')]!
    expect(services.length).toBeGreaterThan(0)
    expect(articles.length).toBeGreaterThan(0)
    for (const link of [...services, ...articles]) {
      expect(built(link.href), `${path} links ${link.href}`).toBe(true)
      expect(link.href).not.toBe(self)
      expect(link.text).not.toBe('')
    }
    // Services in the page's language; articles (English only) marked as English on Chinese pages.
    for (const link of services) expect(link.href).toMatch(new RegExp(`^${LOCALES[locale].prefix}/services/[a-z-]+/$`))
    for (const link of articles) {
      expect(link.href).toMatch(/^\/blog\/[a-z-]+\/$/)
      expect([link.lang, link.hreflang]).toEqual(locale === 'cn' ? ['en', 'en'] : [undefined, undefined])
    }
    expect(cta, `${path} has no call to action`).toBeDefined()
    expect(textOf(select(cta!, (el) => el.name === 'p')[0]!)).toBe(t(locale, 'cta.text'))
    const speak = select(cta!, (el) => el.name === 'a')
    expect(speak.map((a) => [a.attribs.href, textOf(a)])).toEqual([[`${LOCALES[locale].prefix}/contact/`, t(locale, 'cta.speak')]])
  })

  test('an article\'s related services are the services its text links to', () => {
    const body = readFileSync(join(site, 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'), 'utf8')
    const linked = [...new Set([...body.matchAll(/\]\((\/services\/[a-z-]+\/)[^)]*\)/g)].map((m) => m[1]!))].sort()
    expect(linked.length).toBeGreaterThan(0)
    const { lists } = sidebarOf('blog/how-to-prepare-for-a-rhinoplasty/index.html')
    expect(lists[t('en', 'sidebar.services')]!.map((l) => l.href).sort()).toEqual(linked)
  })

  test('a service\'s related articles are articles that link to it, in both languages', () => {
    const en = sidebarOf('services/rhinoplasty/index.html').lists[t('en', 'sidebar.articles')]!
    const cn = sidebarOf('cn/services/rhinoplasty/index.html').lists[t('cn', 'sidebar.articles')]!
    expect(cn.map((l) => l.href)).toEqual(en.map((l) => l.href))
    for (const { href } of en) {
      const body = readFileSync(join(site, `content/en${href.replace(/\/$/, '.md')}`), 'utf8')
      expect(body, href).toMatch(/\]\(\/services\/rhinoplasty\/[^)]*\)/)
    }
  })
})

describe('the doctor profile block', () => {
  test.each(['en', 'cn'] as const)('on the %s home page: each doctor\'s name, role and qualifications from front matter, and a link to the profile', (locale) => {
    const cards = find(page(`${dir(locale)}index.html`), 'article', 'doctor-card')
    expect(cards).toHaveLength(DOCTORS.length)
    DOCTORS.forEach((slug, i) => {
      const data = frontMatter(locale, slug)
      const card = cards[i]!
      const heading = select(card, (el) => el.name === 'h3')[0]!
      expect(textOf(heading)).toBe(data.name)
      expect(select(heading, (el) => el.name === 'a')[0]!.attribs.href).toBe(`${LOCALES[locale].prefix}/${slug}/`)
      expect(textOf(find(card, 'p', 'doctor-card__role')[0]!)).toBe(data.role)
      const quals = find(card, 'p', 'doctor-card__quals')[0]!
      expect(textOf(quals)).toBe(data.qualifications.join(' · '))
      expect(quals.attribs.lang).toBe('en')
      // Joined the language's way: 'English, Mandarin and Hokkien', '英语、华语和福建话'.
      const languages = new Intl.ListFormat(locale === 'en' ? 'en-SG' : 'zh-CN', { type: 'conjunction' }).format(data.languages)
      expect(textOf(find(card, 'p', 'doctor-card__languages')[0]!)).toBe(`${t(locale, 'doctor.languages')}${t(locale, 'language.labelSeparator')}${languages}`)
      if (locale === 'cn') expect(textOf(find(card, 'p', 'doctor-card__languages')[0]!)).toMatch(/：[^,:]*、/)
      // The drawn roundel: initials in English, the surname alone in Chinese.
      const initials = textOf(select(card, (el) => el.name === 'text')[0]!)
      expect(initials).toBe(locale === 'en' ? data.name.replace(/^Dr /, '').split(' ').slice(0, 2).map((w: string) => w[0]).join('') : data.name[0])
    })
    expect(textOf(cards[1]!)).toContain(QUALIFICATION)
  })

  test.each(['en', 'cn'] as const)('on the %s doctor page: name, role, each qualification and the registration number', (locale) => {
    const registration = parse(readFileSync(join(site, 'content/site.yaml'), 'utf8')).doctors as { slug: string; mcr: string }[]
    for (const slug of DOCTORS) {
      const data = frontMatter(locale, slug)
      const doc = page(`${dir(locale)}${slug}/index.html`)
      expect(textOf(select(doc, (el) => el.name === 'h1')[0]!)).toBe(data.name)
      expect(textOf(find(doc, 'p', 'banner__lead')[0]!)).toBe(data.role)
      const facts = find(doc, 'dl', 'facts')[0]!
      const terms = select(facts, (el) => el.name === 'dt').map(textOf)
      const values = select(facts, (el) => el.name === 'dd')
      const value = (key: string) => values[terms.indexOf(t(locale, key))]!
      expect(select(value('doctor.qualifications'), (el) => el.name === 'li').map(textOf)).toEqual(data.qualifications)
      expect(textOf(value('doctor.mcr'))).toBe(registration.find((d) => d.slug === slug)!.mcr)
    }
  })
})
