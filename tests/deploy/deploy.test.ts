/**
 * Deploy outputs: the security policy as built (header and <meta>) and each host's files.
 */
import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/index.ts'
import { byTag, readHtml, select, textOf } from '../../src/check/html.ts'
import { contentSecurityPolicy, serializePolicy } from '../../src/deploy/policy.ts'
import { formatDiagnostic } from '../../src/errors.ts'
import { copySite, edit, projectRoot } from '../support/helpers.ts'
import { writtenHeaderRules } from '../support/headers.ts'

let result: BuildResult
const file = (path: string) => result.files.find((f) => f.path === path)?.contents as string | undefined
const pages = () => result.table!.routes.map((r) => readHtml(r.output, file(r.output)!))

beforeAll(async () => { result = await build({ root: projectRoot, write: false }) })

/** `_headers` as Netlify and Cloudflare read it: path -> header -> value. */
const parseHeadersFile = (text: string) => Object.fromEntries(writtenHeaderRules(text).map((r) => [r.path, r.headers]))

const directivesOf = (policy: string) => Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]))

describe('security policy', () => {
  test('_headers sets the policy and the security headers on every path, and a year of caching on assets', () => {
    const rules = parseHeadersFile(file('_headers')!)
    expect(Object.keys(rules)).toEqual(['/*', '/assets/*', '/admin/*']) // the content editor's own rule: tests/admin/outputs.test.ts
    expect(Object.keys(rules['/*']!).sort()).toEqual(['Content-Security-Policy', 'Permissions-Policy', 'Referrer-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'X-Frame-Options'])
    expect(rules['/*']!['X-Content-Type-Options']).toBe('nosniff')
    expect(rules['/*']!['Strict-Transport-Security']).toMatch(/^max-age=\d{8,}/)
    expect(rules['/*']!['Referrer-Policy']).toBe('strict-origin-when-cross-origin')
    expect(rules['/*']!['Permissions-Policy']).toContain('camera=()')
    expect(rules['/assets/*']).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable' })
    const csp = directivesOf(rules['/*']!['Content-Security-Policy']!)
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(csp['object-src']).toEqual(["'none'"])
  })

  test('scripts need no unsafe-inline or unsafe-eval: every inline script of every page is allowed by its hash', () => {
    const csp = directivesOf(parseHeadersFile(file('_headers')!)['/*']!['Content-Security-Policy']!)
    expect(Object.values(csp).flat().join(' ')).not.toMatch(/unsafe-(inline|eval|hashes)/)
    let inline = 0
    for (const page of pages()) {
      for (const script of select(page.doc, (el) => el.name === 'script' && !el.attribs.src && !/json/.test(el.attribs.type ?? ''))) {
        const text = script.children.map((c) => ('data' in c ? c.data : '')).join('')
        const hash = `'sha256-${createHash('sha256').update(text).digest('base64')}'`
        expect(csp['script-src'], `${page.path}: ${text.slice(0, 60)}`).toContain(hash)
        inline++
      }
    }
    expect(inline).toBeGreaterThan(result.table!.routes.length) // the runtime's scripts on every page, the 404 script once
  })

  test('sources are limited to the site, the font service, the map frame (and the tag manager when configured)', () => {
    const csp = directivesOf(parseHeadersFile(file('_headers')!)['/*']!['Content-Security-Policy']!)
    const others = Object.values(csp).flat().filter((s) => !/^'(self|none|sha256-[A-Za-z0-9+/=]+)'$/.test(s))
    expect(new Set(others)).toEqual(new Set(['https://fonts.googleapis.com', 'https://fonts.gstatic.com', 'https://www.google.com']))
    expect(csp['frame-src']).toEqual(['https://www.google.com'])
    expect(csp['style-src']).toEqual(["'self'", 'https://fonts.googleapis.com'])
  })

  test('every page carries the same policy in a <meta> ahead of every script, without frame-ancestors', () => {
    const header = parseHeadersFile(file('_headers')!)['/*']!['Content-Security-Policy']!
    for (const page of pages()) {
      const head = byTag(page.doc, 'head')[0]!
      const metas = select(head, (el) => el.name === 'meta' && el.attribs['http-equiv']?.toLowerCase() === 'content-security-policy')
      expect(metas, page.path).toHaveLength(1)
      expect(metas[0]!.attribs.content).toBe(header.replace(/; frame-ancestors 'none'/, ''))
      const first = select(page.doc, (el) => ['script', 'style', 'link'].includes(el.name))[0]!
      expect(metas[0]!.startIndex!, page.path).toBeLessThan(first.startIndex!)
    }
  })

  test('hashes come from the pages as built, and the sources from the configuration', async () => {
    const root = copySite()
    edit(root, 'content/site.yaml', (text) => text
      .replace(/gtmId: ""/, 'gtmId: "GTM-AB12CD3"').replace(/gaId: ""/, 'gaId: "G-AB12CD34EF"')
      .replace(/delivery: local/, 'delivery: endpoint').replace(/endpoint: ""/, 'endpoint: "https://forms.example.org/f/abc"'))
    const configured = await build({ root, write: false })
    const csp = directivesOf(parseHeadersFile(configured.files.find((f) => f.path === '_headers')!.contents as string)['/*']!['Content-Security-Policy']!)
    expect(csp['script-src']).toContain('https://www.googletagmanager.com')
    expect(csp['frame-src']).toContain('https://www.googletagmanager.com')
    expect(csp['connect-src']).toEqual(expect.arrayContaining(["'self'", 'https://forms.example.org', 'https://*.google-analytics.com']))
    expect(csp['form-action']).toEqual(["'self'", 'https://forms.example.org'])

    const site = (await import('../../src/content/site.ts')).parseSite({ path: 'content/site.yaml', text: (await import('node:fs')).readFileSync(`${projectRoot}/content/site.yaml`, 'utf8') }).site!
    const policy = contentSecurityPolicy(site, { html: ['<p>x</p><script>alert(1)</script><script type="module">go()</script><script type="application/json">{"a":1}</script><script src="/x.js"></script>'], css: ['a{background:url(data:image/png;base64,AA)}'] })
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
    expect(policy['script-src']).toEqual(["'self'", sha('alert(1)'), sha('go()')].sort((a, b) => (a === "'self'" ? -1 : b === "'self'" ? 1 : a.localeCompare(b))))
    expect(policy['img-src']).toEqual(["'self'", 'data:'])
    expect(serializePolicy(policy, { meta: true })).not.toContain('frame-ancestors')
  })
})

describe('hosts', () => {
  test('Netlify: each other language gets its own 404 page, and / is redirected by language only when enabled', async () => {
    expect(file('_redirects')!.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(['/cn/*  /cn/404.html  404'])
    const root = copySite()
    edit(root, 'content/site.yaml', (text) => text.replace(/languageRedirect: false/, 'languageRedirect: true'))
    const redirected = await build({ root, write: false })
    const rules = (redirected.files.find((f) => f.path === '_redirects')!.contents as string).split('\n').filter((l) => l && !l.startsWith('#'))
    expect(rules).toEqual(['/  /index.html  200!  Cookie=i18n_redirected', '/  /cn/  302!  Language=zh', '/cn/*  /cn/404.html  404'])
  })

  test('Cloudflare Pages gets no _redirects (it finds each language\'s 404.html itself), and no language redirect', async () => {
    const root = copySite()
    edit(root, 'content/site.yaml', (text) => text.replace(/host: netlify/, 'host: cloudflare-pages'))
    const cloudflare = await build({ root, write: false })
    expect(cloudflare.files.map((f) => f.path)).not.toContain('_redirects')
    expect(cloudflare.files.map((f) => f.path)).toEqual(expect.arrayContaining(['_headers', '404.html', 'cn/404.html']))
    edit(root, 'content/site.yaml', (text) => text.replace(/languageRedirect: false/, 'languageRedirect: true'))
    const refused = await build({ root, write: false })
    expect(refused.ok).toBe(false)
    expect(refused.diagnostics.map(formatDiagnostic).join('\n')).toMatch(/content\/site\.yaml:\d+:\d+ {2}InvalidSiteConfig {2}Site configuration field "deploy\.languageRedirect" is supported on Netlify only/)
  })

  test('GitHub Pages: .nojekyll, and the root 404 page carries the script that shows the other languages\' 404', () => {
    expect(file('.nojekyll')).toBe('')
    const root404 = readHtml('404.html', file('404.html')!)
    const scripts = select(root404.doc, (el) => el.name === 'script' && !el.attribs.src && !el.attribs.type && el.parent?.type === 'tag' && (el.parent as { name: string }).name === 'body')
    expect(scripts.map(textOf).join('')).toContain('"cn":"/cn/404.html"')
    expect(file('cn/404.html')).not.toContain('"cn":"/cn/404.html"')
  })
})

// The CloudFront Functions and their KeyValueStore, run as CloudFront runs them: tests/deploy/cloudfront.test.ts.
