import { describe, expect, test } from 'vitest'
import { escapeRegExp } from '../../src/util/regexp.ts'
import { localeUrl, notFoundPageFor, outputFileFor, splitLocale, urlOfOutput, withTrailingSlash } from '../../src/shared/urls.ts'

describe('localeUrl', () => {
  test('keeps the default locale at the root and prefixes the others', () => {
    expect(localeUrl('en', '/contact/', 'en')).toBe('/contact/')
    expect(localeUrl('cn', '/contact/', 'en')).toBe('/cn/contact/')
    expect(localeUrl('cn', '/', 'en')).toBe('/cn/')
    expect(localeUrl('ms', '/services/ear/', 'en')).toBe('/ms/services/ear/')
  })
  test('adds the trailing slash that every page URL carries', () => {
    expect(localeUrl('en', 'contact', 'en')).toBe('/contact/')
    expect(localeUrl('cn', '/404.html', 'en')).toBe('/cn/404.html')
  })
})

describe('splitLocale', () => {
  test('finds the locale prefix and the shared path', () => {
    expect(splitLocale('/cn/services/ear/', ['en', 'cn'], 'en')).toEqual({ locale: 'cn', path: '/services/ear/' })
    expect(splitLocale('/cn/', ['en', 'cn'], 'en')).toEqual({ locale: 'cn', path: '/' })
    expect(splitLocale('/blog/', ['en', 'cn'], 'en')).toEqual({ locale: 'en', path: '/blog/' })
    expect(splitLocale('/cnx/', ['en', 'cn'], 'en')).toEqual({ locale: 'en', path: '/cnx/' })
  })
})

describe('outputFileFor', () => {
  test('writes pages as index.html in their folder and 404 pages by name', () => {
    expect(outputFileFor('/')).toBe('index.html')
    expect(outputFileFor('/cn/contact/')).toBe('cn/contact/index.html')
    expect(outputFileFor('/404.html')).toBe('404.html')
    expect(outputFileFor('/cn/404.html')).toBe('cn/404.html')
  })
})

test('notFoundPageFor answers with the 404 page of the URL\'s language', () => {
  expect(notFoundPageFor('/cn/nothing/', ['en', 'cn'], 'en')).toBe('/cn/404.html')
  expect(notFoundPageFor('/nothing/', ['en', 'cn'], 'en')).toBe('/404.html')
})

test('withTrailingSlash leaves file names alone', () => {
  expect(withTrailingSlash('/a')).toBe('/a/')
  expect(withTrailingSlash('/sitemap.xml')).toBe('/sitemap.xml')
})

describe('urlOfOutput', () => {
  test('turns outputFileFor round', () => {
    for (const url of ['/', '/cn/', '/cn/contact/', '/404.html', '/cn/404.html']) expect(urlOfOutput(outputFileFor(url))).toBe(url)
  })
})

describe('escapeRegExp', () => {
  test('matches the text literally', () => {
    const base = 'https://www.amberlin-clinic.example/a+b(c)?'
    expect(new RegExp(`^${escapeRegExp(base)}$`).test(base)).toBe(true)
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false)
  })
})
