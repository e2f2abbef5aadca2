/**
 * S3 behind CloudFront: the two functions and the KeyValueStore file as built, run in a sandbox
 * with only what cloudfront-js-2.0 offers, in front of an origin answering from the built folder
 * as S3 does (tests/support/cloudfront.ts); for the shipped site and for a copy of 10,000 pages.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build } from '../../src/index.ts'
import { parseSite } from '../../src/content/site.ts'
import { CLOUDFRONT_LIMIT, cloudFrontFunctions, KEY_VALUE_STORE_FILE, KEY_VALUE_STORE_LIMITS } from '../../src/deploy/cloudfront.ts'
import type { HeaderRule } from '../../src/deploy/static-hosts.ts'
import type { Route, RouteTable, SiteConfig } from '../../src/types.ts'
import { distribution, keyValueStore, loadFunction, unsupportedSyntax, type Answer } from '../support/cloudfront.ts'
import { filesIn, projectRoot } from '../support/helpers.ts'
import { writtenHeaderRules } from '../support/headers.ts'

const REQUEST = '_cloudfront/viewer-request.js'
const RESPONSE = '_cloudfront/viewer-response.js'
const REVALIDATE = 'public, max-age=0, must-revalidate'
const IMMUTABLE = 'public, max-age=31536000, immutable'

let out: string
let table: RouteTable
let files: Map<string, string>
let site: SiteConfig
const text = (path: string) => files.get(path)!

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'clinic-cloudfront-'))
  const result = await build({ root: projectRoot, out, cache: false })
  expect(result.ok).toBe(true)
  table = result.table!
  // The folder as synced to the bucket (binary files as latin1: only their presence matters here).
  files = filesIn(out, (path) => readFileSync(path, 'latin1'))
  for (const [path, contents] of files) if (path.endsWith('.html') || path.endsWith('.js') || path.endsWith('.json') || path === '_headers') files.set(path, Buffer.from(contents, 'latin1').toString('utf8'))
  site = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') }).site!
}, 120_000)

/** `_headers` read back: the site's headers and the folders' rules. */
function headerRules(): { headers: Record<string, string>; folders: HeaderRule[] } {
  const rules = writtenHeaderRules(text('_headers'))
  return { headers: rules.find((r) => r.path === '/*')!.headers, folders: rules.filter((r) => r.path !== '/*' && r.path !== '/assets/*') }
}

const served = (built: Map<string, string>, responseSees?: 'rewritten' | 'asked') => {
  const store = keyValueStore(built.get(KEY_VALUE_STORE_FILE)!)
  return distribution(built, loadFunction(built.get(REQUEST)!, store), loadFunction(built.get(RESPONSE)!, store), responseSees)
}

const notFoundOf = (locale: string) => table.routes.find((r) => r.status === 404 && r.locale === locale)!

/** What every answer of the site must carry: the site's headers, or under /admin/ the editor's. */
function expectHeaders(answer: Answer, address: string) {
  const { headers, folders } = headerRules()
  const own = folders.find((f) => address.startsWith(f.path.replace('*', '')))
  for (const [name, value] of Object.entries({ ...headers, ...own?.headers })) expect(answer.headers[name.toLowerCase()], `${address} ${name}`).toBe(value)
}

describe('the functions as built', () => {
  test('are written in the syntax cloudfront-js-2.0 documents, and nothing else', () => {
    for (const path of [REQUEST, RESPONSE]) expect(unsupportedSyntax(text(path)), path).toEqual([])
    // The same check refuses what the runtime lacks.
    const refused = (code: string) => unsupportedSyntax(`import cf from 'cloudfront';\n${code}`)
    expect(refused('for (const x of [1]) {}')).toEqual([expect.stringMatching(/^ForOfStatement at 2:1$/)])
    expect(refused('var a = {}; var b = a?.c ?? 1;').join(' ')).toMatch(/QuestionDotToken.*QuestionQuestionToken/)
    expect(refused('class A {}')[0]).toMatch(/^ClassDeclaration/)
    expect(refused('var f = async () => 1;')).toContain('async closure at 2:9')
    expect(refused('var { a } = {};')[0]).toMatch(/^ObjectBindingPattern/)
    expect(unsupportedSyntax("import fs from 'node:fs';")).toEqual(['import other than the cloudfront module\'s default at 1:1'])
    expect(unsupportedSyntax('var a = ;')[0]).toMatch(/^parse error/)
  })

  test('run in a sandbox with no require, fetch, timers, process or code from strings', async () => {
    const probe = loadFunction(`import cf from 'cloudfront';
async function handler(event) {
  var reached = [];
  try { cf.kvs().get.constructor('return process')(); reached.push('the module\\'s Function'); } catch (e) { }
  try { event.constructor.constructor('return process')(); reached.push('the event\\'s Function'); } catch (e) { }
  return { statusCode: 200, headers: {}, reached: reached };
}`, new Map())
    for (const name of ['fetch', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'process', 'Buffer', 'module', 'require']) {
      expect(probe.evaluate(`typeof ${name}`), name).toBe('undefined')
    }
    expect(() => probe.evaluate('eval("1")')).toThrow(/Code generation from strings disallowed/)
    expect(() => probe.evaluate('new Function("return 1")')).toThrow(/Code generation from strings disallowed/)
    expect(await probe.handler({ request: {} })).toMatchObject({ reached: [] })
    expect(() => loadFunction("import fs from 'node:fs';\nfunction handler() {}", new Map())).toThrow(/not cloudfront-js-2.0/)
  })

  test('stay within 10 KB, and the same functions serve a site of 10,000 pages', () => {
    const { headers, folders } = headerRules()
    const rebuilt = cloudFrontFunctions(table, site, headers, folders)
    // What the build wrote is what these inputs give: the larger site's files below are the build's.
    for (const f of rebuilt) expect(f.contents, f.path).toBe(text(f.path))
    const large = cloudFrontFunctions(tenThousandPages(table).table, site, headers, folders)
    const size = (path: string, from: { path: string; contents: string | Uint8Array }[]) => Buffer.byteLength(from.find((f) => f.path === path)!.contents as string)
    for (const path of [REQUEST, RESPONSE]) {
      expect(size(path, rebuilt), path).toBeLessThanOrEqual(CLOUDFRONT_LIMIT)
      expect(large.find((f) => f.path === path)!.contents, path).toBe(text(path))
    }
    const store = size(KEY_VALUE_STORE_FILE, large)
    expect(store).toBeLessThanOrEqual(KEY_VALUE_STORE_LIMITS.fileBytes)
    for (const [key, value] of keyValueStore(large.find((f) => f.path === KEY_VALUE_STORE_FILE)!.contents as string)) {
      expect(key.length).toBeLessThanOrEqual(KEY_VALUE_STORE_LIMITS.keyCharacters)
      expect(value.length).toBeLessThanOrEqual(KEY_VALUE_STORE_LIMITS.valueCharacters)
    }
    console.log(`CloudFront: viewer-request ${size(REQUEST, rebuilt)} B, viewer-response ${size(RESPONSE, rebuilt)} B (any number of pages); `
      + `KeyValueStore file ${size(KEY_VALUE_STORE_FILE, rebuilt)} B for the shipped site's ${table.routes.length} routes, ${store} B at ${table.routes.length + 10_000}`)
  })
})

describe.each(['rewritten', 'asked'] as const)('the shipped site through CloudFront (viewer response sees the request %s)', (responseSees) => {
  test('every page answers 200 with its file, the site\'s headers and revalidation', async () => {
    const visit = served(files, responseSees)
    for (const route of table.routes.filter((r) => r.status === 200)) {
      const answer = await visit(route.url)
      expect(answer.status, route.url).toBe(200)
      expect(answer.originKey, route.url).toBe(route.output)
      expect(answer.body, route.url).toBe(text(route.output))
      expect(answer.headers['cache-control'], route.url).toBe(REVALIDATE)
      expectHeaders(answer, route.url)
    }
  })

  test('/x and /x/index.html redirect to /x/ with the query kept', async () => {
    const visit = served(files, responseSees)
    for (const route of table.routes.filter((r) => r.status === 200 && r.url !== '/')) {
      expect(await visit(`${route.url.slice(0, -1)}?utm_source=mail&a=1&a=2`), route.url).toMatchObject({ status: 301, headers: { location: `${route.url.slice(0, -1)}/?utm_source=mail&a=1&a=2` } })
      expect(await visit(`${route.url}index.html?ref=x`), route.url).toMatchObject({ status: 301, headers: { location: `${route.url}?ref=x` } })
    }
    expect(await visit('/index.html')).toMatchObject({ status: 301, headers: { location: '/' } })
  })

  test('an unknown address answers 404 with the 404 page of the language it is under', async () => {
    const visit = served(files, responseSees)
    const others = site.locales.filter((l) => l.code !== site.defaultLocale).map((l) => l.code)
    expect(others.length).toBeGreaterThan(0)
    const cases: [string, string][] = [
      ...others.flatMap((code): [string, string][] => [[`/${code}/nowhere/`, code], [`/${code}/nowhere`, code], [`/${code}/services/nowhere/index.html`, code], [`/${code}/404.html`, code]]),
      ['/nowhere/', site.defaultLocale], ['/nowhere', site.defaultLocale], ['/blog/page/9/', site.defaultLocale], ['/nowhere/index.html', site.defaultLocale], ['/404.html', site.defaultLocale],
    ]
    for (const [address, locale] of cases) {
      const answer = await visit(address)
      expect(answer.status, address).toBe(404)
      expect(answer.body, address).toBe(text(notFoundOf(locale).output))
      expect(answer.headers['cache-control'], address).toBe(REVALIDATE)
      expectHeaders(answer, address)
    }
  })

  test('fingerprinted assets are kept a year; other files and missing files revalidate', async () => {
    const visit = served(files, responseSees)
    const assets = [...files.keys()].filter((p) => p.startsWith('assets/'))
    expect(assets.length).toBeGreaterThan(3)
    for (const path of assets) {
      const answer = await visit(`/${path}`)
      expect(answer.status, path).toBe(200)
      expect(answer.headers['cache-control'], path).toBe(IMMUTABLE)
    }
    for (const path of ['/sitemap.xml', '/robots.txt', '/favicon.svg']) expect(await visit(path), path).toMatchObject({ status: 200, headers: { 'cache-control': REVALIDATE } })
    // S3 answers 403 for a key it lacks; the custom error response gives the 404 page.
    const missing = await visit('/assets/site.00000000.css')
    expect(missing).toMatchObject({ status: 404, headers: { 'cache-control': REVALIDATE } })
    expect(missing.body).toBe(text('404.html'))
  })

  test('/admin/ answers with the editor\'s own policy, not the site\'s', async () => {
    const visit = served(files, responseSees)
    const admin = await visit('/admin/')
    expect(admin).toMatchObject({ status: 200, originKey: 'admin/index.html' })
    expectHeaders(admin, '/admin/')
    const { headers, folders } = headerRules()
    expect(admin.headers['content-security-policy']).toBe(folders.find((f) => f.path === '/admin/*')!.headers['Content-Security-Policy'])
    expect(admin.headers['content-security-policy']).not.toBe(headers['Content-Security-Policy'])
    expect(await visit('/admin')).toMatchObject({ status: 301, headers: { location: '/admin/' } })
    expect((await visit('/admin/config.json')).status).toBe(200)
  })
})

test('a copy of 10,000 pages: every page answers 200, unknown addresses their language\'s 404', async () => {
  const { headers, folders } = headerRules()
  const large = tenThousandPages(table)
  const built = new Map(files)
  for (const f of cloudFrontFunctions(large.table, site, headers, folders)) built.set(f.path, f.contents as string)
  for (const route of large.added) built.set(route.output, `<!doctype html><title>${route.url}</title>`)
  const visit = served(built)
  for (const route of large.table.routes.filter((r) => r.status === 200)) {
    const answer = await visit(route.url)
    expect(answer.status, route.url).toBe(200)
    expect(answer.body, route.url).toBe(built.get(route.output))
  }
  const last = large.added.at(-1)!
  expect(await visit(last.url.slice(0, -1))).toMatchObject({ status: 301, headers: { location: last.url } })
  for (const locale of site.locales.map((l) => l.code)) {
    const prefix = locale === site.defaultLocale ? '' : `/${locale}`
    const answer = await visit(`${prefix}/blog/synthetic-article-10001/`)
    expect(answer.status).toBe(404)
    expect(answer.body).toBe(text(notFoundOf(locale).output))
  }
})

/** The shipped route table with 10,000 articles more, half in each language. */
function tenThousandPages(shipped: RouteTable): { table: RouteTable; added: Route[] } {
  const added: Route[] = []
  for (let i = 0; i < 10_000; i++) {
    const locale = i % 2 ? 'cn' : 'en'
    const url = `${locale === 'en' ? '' : '/cn'}/blog/synthetic-article-about-recovery-${i}/`
    added.push({ url, locale, path: url, template: 'article', alternates: { [locale]: url }, status: 200, output: `${url.slice(1)}index.html` } as Route)
  }
  const routes = [...shipped.routes, ...added].sort((a, b) => (a.url < b.url ? -1 : 1))
  return { table: { routes, byUrl: new Map(routes.map((r) => [r.url, r])) }, added }
}
