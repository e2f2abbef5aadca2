/**
 * The `hosts` check on what the build writes for CloudFront: each documented limit, just within
 * it and one past it; an error when the site deploys to CloudFront, a warning otherwise.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkHostFiles } from '../../src/check/hosts.ts'
import { parseSite } from '../../src/content/site.ts'
import { KEY_VALUE_STORE_FILE } from '../../src/deploy/cloudfront.ts'
import type { SiteConfig } from '../../src/types.ts'
import { projectRoot } from '../support/helpers.ts'

const siteFor = (host: string): SiteConfig => {
  const text = readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8').replace(/^ {2}host: netlify\b/m, `  host: ${host}`)
  return parseSite({ path: 'content/site.yaml', text }).site!
}
const cloudFront = siteFor('s3-cloudfront')

/** The hosts check over these files, as the folder would hold them. */
const findings = (files: Record<string, string>, site = cloudFront) =>
  checkHostFiles(Object.keys(files), (path) => Buffer.byteLength(files[path]!), (path) => files[path], site)
    .map((d) => `${d.severity} ${d.code} ${d.file}`)

const store = (pairs: { key: string; value: string }[], size?: number) => {
  const json = JSON.stringify({ data: pairs })
  // JSON allows any whitespace before the last brace: a file of exactly `size` bytes.
  return size === undefined ? json : `${json.slice(0, -1)}${' '.repeat(size - Buffer.byteLength(json))}}`
}

describe('CloudFront', () => {
  test('a function of 10 KB passes; one byte more is an error', () => {
    const code = (bytes: number) => `// ${'x'.repeat(bytes - 4)}\n`
    expect(Buffer.byteLength(code(10 * 1024))).toBe(10 * 1024)
    expect(findings({ '_cloudfront/viewer-request.js': code(10 * 1024) })).toEqual([])
    expect(findings({ '_cloudfront/viewer-request.js': code(10 * 1024 + 1) })).toEqual(['error CloudFrontFunctionTooLarge _cloudfront/viewer-request.js'])
    expect(findings({ '_cloudfront/viewer-request.js': code(10 * 1024 + 1) }, siteFor('netlify'))).toEqual(['warning CloudFrontFunctionTooLarge _cloudfront/viewer-request.js'])
  })

  test('a KeyValueStore file of 5 MB passes; one byte more is an error', () => {
    const pairs = Array.from({ length: 20_000 }, (_, i) => ({ key: `/blog/article-${i}/`, value: `/blog/article-${i}/index.html${'-'.repeat(150)}` }))
    expect(findings({ [KEY_VALUE_STORE_FILE]: store(pairs, 5 * 1024 * 1024) })).toEqual([])
    expect(findings({ [KEY_VALUE_STORE_FILE]: store(pairs, 5 * 1024 * 1024 + 1) })).toEqual([`error KeyValueStoreTooLarge ${KEY_VALUE_STORE_FILE}`])
  })

  test('a key of 512 characters passes, 513 is an error; a value of 1,024 passes, 1,025 is an error', () => {
    const key = (n: number) => `/${'页'.repeat(n - 2)}/` // characters, not bytes, as CloudFront counts them
    expect(findings({ [KEY_VALUE_STORE_FILE]: store([{ key: key(512), value: '/a/index.html' }]) })).toEqual([])
    expect(findings({ [KEY_VALUE_STORE_FILE]: store([{ key: key(513), value: '/a/index.html' }]) })).toEqual([`error KeyValueStoreKeyTooLong ${KEY_VALUE_STORE_FILE}`])
    const value = (n: number) => `/${'a'.repeat(n - 11)}index.html`
    expect(findings({ [KEY_VALUE_STORE_FILE]: store([{ key: '/a/', value: value(1024) }]) })).toEqual([])
    expect(findings({ [KEY_VALUE_STORE_FILE]: store([{ key: '/a/', value: value(1025) }]) })).toEqual([`error KeyValueStoreValueTooLong ${KEY_VALUE_STORE_FILE}`])
    expect(findings({ [KEY_VALUE_STORE_FILE]: store([{ key: '/a/', value: value(1025) }]) }, siteFor('cloudflare-pages'))).toEqual([`warning KeyValueStoreValueTooLong ${KEY_VALUE_STORE_FILE}`])
  })

  test('a KeyValueStore file that is not the build\'s JSON is an error', () => {
    expect(findings({ [KEY_VALUE_STORE_FILE]: '{"data":[' })).toEqual([`error KeyValueStoreUnreadable ${KEY_VALUE_STORE_FILE}`])
  })
})
