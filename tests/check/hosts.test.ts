/**
 * The `hosts` check's documented limits of Cloudflare Pages and GitHub Pages, each tried at the
 * size where it is crossed: at the limit no error, one past it an error for the configured host
 * (and nothing when the site is deployed elsewhere). The shipped site's own output is within all.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { checkHostLimits, HOST_LIMITS } from '../../src/check/hosts.ts'
import { parseSite } from '../../src/content/site.ts'
import { build, type BuildResult } from '../../src/index.ts'
import type { SiteConfig } from '../../src/types.ts'
import { projectRoot } from '../support/helpers.ts'

const shipped = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') }).site!
const on = (host: SiteConfig['deploy']['host']): SiteConfig => ({ ...shipped, deploy: { ...shipped.deploy, host } })
const MiB = 1024 * 1024

/** A folder of `count` pages of `bytes` each (or as `sizes` says), with these host files. */
function output({ count = 10, bytes = 1000, sizes = {} as Record<string, number>, headers, redirects }: { count?: number; bytes?: number; sizes?: Record<string, number>; headers?: string; redirects?: string }) {
  const files = [...Array.from({ length: count }, (_, i) => `p${i}/index.html`), ...Object.keys(sizes), ...(headers ? ['_headers'] : []), ...(redirects ? ['_redirects'] : [])]
  const texts: Record<string, string | undefined> = { _headers: headers, _redirects: redirects }
  return [files, (f: string) => sizes[f] ?? texts[f]?.length ?? bytes, (f: string) => texts[f]] as const
}
const codes = (host: SiteConfig['deploy']['host'], folder: ReturnType<typeof output>) => checkHostLimits(...folder, on(host)).map((d) => d.code)

const headerRules = (n: number) => Array.from({ length: n }, (_, i) => `/f${i}/*\n  X-Robots-Tag: noindex`).join('\n')
const headerLine = (length: number) => `/*\n  Content-Security-Policy: ${'a'.repeat(length - '  Content-Security-Policy: '.length + 2)}\n`
const redirectRules = (statics: number, dynamics: number) => [
  ...Array.from({ length: statics }, (_, i) => `/old${i}  /new${i}/  301`),
  ...Array.from({ length: dynamics }, (_, i) => `/d${i}/*  /n${i}/:splat  301`),
].join('\n')

describe('Cloudflare Pages', () => {
  test('20,000 files: no more', () => {
    expect(codes('cloudflare-pages', output({ count: 20_000, headers: '/*\n  X: y' }))).toEqual([]) // _headers is not a file of the site
    expect(codes('cloudflare-pages', output({ count: 20_001 }))).toEqual(['TooManyFilesForHost'])
    expect(codes('netlify', output({ count: 20_001 }))).toEqual([])
  })

  test('25 MiB a file', () => {
    expect(codes('cloudflare-pages', output({ sizes: { 'video.mp4': 25 * MiB } }))).toEqual([])
    const [found] = checkHostLimits(...output({ sizes: { 'video.mp4': 25 * MiB + 1 } }), on('cloudflare-pages'))
    expect(found).toMatchObject({ code: 'FileTooLargeForHost', severity: 'error', file: 'video.mp4' })
    expect(found!.message).toBe('This file is 25.0 MiB; Cloudflare Pages accepts files of at most 25 MiB.')
  })

  test('_headers: 100 rules', () => {
    expect(codes('cloudflare-pages', output({ headers: headerRules(100) }))).toEqual([])
    expect(codes('cloudflare-pages', output({ headers: headerRules(101) }))).toEqual(['TooManyHeaderRules'])
  })

  test('_headers: 2,000 characters a header, with the line it is on', () => {
    expect(headerLine(2000).split('\n')[1]!.trim()).toHaveLength(2000)
    expect(codes('cloudflare-pages', output({ headers: headerLine(2000) }))).toEqual([])
    expect(checkHostLimits(...output({ headers: headerLine(2001) }), on('cloudflare-pages'))).toMatchObject([{ code: 'HeaderTooLong', file: '_headers', line: 2 }])
  })

  test('_redirects: 2,000 static and 100 dynamic rules, 1,000 characters a rule', () => {
    expect(codes('cloudflare-pages', output({ redirects: `# comment\n${redirectRules(2000, 100)}` }))).toEqual([])
    expect(codes('cloudflare-pages', output({ redirects: redirectRules(2001, 0) }))).toEqual(['TooManyRedirectRules'])
    expect(codes('cloudflare-pages', output({ redirects: redirectRules(0, 101) }))).toEqual(['TooManyRedirectRules'])
    expect(codes('cloudflare-pages', output({ redirects: `/:lang/x  /x  301\n${redirectRules(2000, 99)}` }))).toEqual([]) // a placeholder is dynamic
    const rule = (length: number) => `/a  /${'b'.repeat(length - 10)}  301`
    expect(rule(1000)).toHaveLength(1000)
    expect(codes('cloudflare-pages', output({ redirects: rule(1000) }))).toEqual([])
    expect(checkHostLimits(...output({ redirects: `\n${rule(1001)}` }), on('cloudflare-pages'))).toMatchObject([{ code: 'RedirectRuleTooLong', line: 2 }])
  })
})

describe('GitHub Pages', () => {
  test('100 MiB a file', () => {
    expect(codes('github-pages', output({ sizes: { 'a.zip': 100 * MiB } }))).toEqual([])
    expect(codes('github-pages', output({ sizes: { 'a.zip': 100 * MiB + 1 } }))).toEqual(['FileTooLargeForHost'])
  })

  test('1 GB a site', () => {
    expect(codes('github-pages', output({ count: 1000, bytes: 1_000_000 }))).toEqual([])
    expect(codes('github-pages', output({ count: 1000, bytes: 1_000_000, sizes: { 'one-more.txt': 1 } }))).toEqual(['SiteTooLargeForHost'])
    expect(codes('cloudflare-pages', output({ count: 1000, bytes: 1_000_000, sizes: { 'one-more.txt': 1 } }))).toEqual([])
  })

  test('no rule or file count of its own', () => {
    expect(codes('github-pages', output({ count: 30_000, headers: headerRules(200), redirects: redirectRules(3000, 200) }))).toEqual([])
  })
})

describe('the shipped site', () => {
  let result: BuildResult
  beforeAll(async () => { result = await build({ root: projectRoot, write: false }) })

  test.each(Object.keys(HOST_LIMITS) as SiteConfig['deploy']['host'][])('is within every limit of %s', (host) => {
    const text = (f: string) => { const c = result.files.find((x) => x.path === f)?.contents; return c === undefined ? undefined : typeof c === 'string' ? c : new TextDecoder().decode(c) }
    const found = checkHostLimits(result.files.map((f) => f.path), (f) => Buffer.byteLength(result.files.find((x) => x.path === f)!.contents), text, on(host))
    expect(found).toEqual([])
    expect(text('_headers')).toBeDefined()
  })
})
