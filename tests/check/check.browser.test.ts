/**
 * `clinic-build check` on the real built site (clean) and on copies an editor or developer broke:
 * each mistake must come out as `path:line:column  rule  message`, and any error means exit 1.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { check } from '../../src/check/index.ts'
import { staticLoads } from '../../src/check/budgets.ts'
import { readDigest } from '../../src/check/digest.ts'
import { visitPages } from '../../src/check/browser.ts'
import { kindOf } from '../../src/check/plan.ts'
import { checkLinks } from '../../src/check/links.ts'
import { linksServed } from '../../src/check/served.ts'
import { loadManifest } from '../../src/build/manifest.ts'
import { serveFolder } from '../support/browser.ts'
import { buildSite } from '../support/browser.ts'
import { copySite, edit, projectRoot, runCli } from '../support/helpers.ts'

let dist: string
beforeAll(async () => { dist = await buildSite() }, 120_000)

/** A copy of the built site, to break. */
function copyBuilt(): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'clinic-check-')), 'dist')
  cpSync(dist, copy, { recursive: true })
  return copy
}
/** Puts markup at the start of a built page's main content. */
const intoMain = (dir: string, page: string, markup: string) => edit(dir, page, (html) => html.replace(/(<main[^>]*>)/, `$1${markup}`))
const base = 'https://www.amberlin-clinic.example'

describe('the real site', () => {
  test('passes translations, compliance and links, and lists the links to other sites without fetching them', async () => {
    const r = await runCli(['check', '--out', dist, '--only', 'translations,compliance,hosts,links'])
    expect(r.stdout).not.toMatch(/^\S+:\d+:\d+ {2}(?!warning)/m) // no error line
    expect(r.stdout).toMatch(/^\d+ pages checked \(translations [\d.]+ s, compliance [\d.]+ s, hosts [\d.]+ s, links [\d.]+ s\): 0 errors, \d+ warnings?\.$/m)
    expect(r.stdout).toMatch(/Links to other sites \(listed, not fetched\): \d+\n( {2}\S+ .*\n)* {2}https:\/\/wa\.me\/\d+\?text=/)
    // The one justified exception in the content is reported, not hidden.
    expect(r.stdout).toMatch(/^content\/en\/blog\/debunking-myths-about-plastic-surgery\.md:\d+:\d+ {2}warning LintAllowed {2}TIME_PROMISE allowed here: "in a day" — reason: the heading quotes the myth/m)
    expect(r.status).toBe(0)
  }, 120_000)

  test('refuses a folder that holds no built site', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'clinic-empty-'))
    const r = await runCli(['check', '--out', empty])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`clinic-build: ${empty} holds no built site: build it first with \`clinic-build --out ${empty}\`.\n`)
  })

  test('an unknown check is refused by name', async () => {
    const r = await runCli(['check', '--out', dist, '--only', 'links,spelling'])
    expect(r).toMatchObject({ status: 1, stderr: 'clinic-build: --only takes translations, compliance, hosts, links, structured-data, accessibility, budgets; got "spelling".\n' })
  })
})

describe('budgets without the browser', () => {
  // check sizes every page from its HTML and the build's script graph, and the browser only one page of each kind.
  test('load, for one page of every kind, exactly the scripts and stylesheets the browser loads', async () => {
    const manifest = loadManifest(projectRoot, dist)!
    const pages = Object.entries(manifest.pages).map(([path, facts]) => {
      const html = readFileSync(join(dist, path), 'utf8')
      return { path, facts, html, hash: '', digest: readDigest(html, '') }
    })
    const oneOfEach = [...new Map(pages.map((p) => [kindOf(p), p])).values()]
    expect(oneOfEach.length).toBeGreaterThanOrEqual(18)
    const server = await serveFolder(dist)
    try {
      const visits = await visitPages(server.url, oneOfEach.map((p) => p.path))
      for (const page of oneOfEach) {
        const seen = visits.find((v) => v.path === page.path)!.loaded
        const unique = [...new Map(seen.map((l) => [l.path, l])).values()].sort((a, b) => a.type.localeCompare(b.type) || a.path.localeCompare(b.path))
        expect(staticLoads(page.digest, manifest.assets), page.path).toEqual(unique)
      }
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('a broken site', () => {
  test('links, translations and advertising rules: every finding with its place, exit 1', async () => {
    const out = copyBuilt()
    intoMain(out, 'services/ear/index.html', '<p><a href="/no-such-page/">gone</a> <a href="/contact">no slash</a> <a href="#nowhere">anchor</a></p>')
    intoMain(out, 'cn/contact/index.html', '<p>This paragraph was left in English by mistake, so a Chinese reader cannot use it.</p>')
    rmSync(join(out, 'cn/thank-you'), { recursive: true })
    edit(out, '_cloudfront/viewer-response.js', (js) => `${js}\n// ${'x'.repeat(10 * 1024)}`) // as if the headers had outgrown the limit
    const site = copySite()
    edit(site, 'content/en/services/ear.md', (md) => md.replace('Neither condition affects hearing', 'We are the best clinic in Singapore. Neither condition affects hearing'))

    const r = await runCli(['check', '--out', out, '--root', site, '--only', 'translations,compliance,hosts,links'])
    const lines = r.stdout.split('\n')
    const line = (prefix: RegExp) => lines.filter((l) => prefix.test(l))
    expect(line(/^services\/ear\/index\.html:1:\d+ {2}BrokenLink {2}\/no-such-page\/ answers status 404$/)).toHaveLength(1)
    expect(line(/^services\/ear\/index\.html:1:\d+ {2}BrokenLink {2}\/contact redirects \(status 308\)/)).toHaveLength(1)
    expect(line(/^services\/ear\/index\.html:1:\d+ {2}BrokenLink {2}\/services\/ear\/#nowhere names an anchor that is not on the page$/)).toHaveLength(1)
    expect(line(/^cn\/contact\/index\.html:1:\d+ {2}WrongLanguage {2}This text is not in the page's language \(zh\): "This paragraph was left/)).toHaveLength(1)
    expect(line(/^thank-you\/index\.html {2}MissingTranslation {2}This page has no "cn" version: \/cn\/thank-you\/ is missing\.$/)).toHaveLength(1)
    expect(line(/^content\/en\/services\/ear\.md:13:\d+ {2}SUPERLATIVE {2}.*"best"/)).toHaveLength(1)
    // The sample site deploys to Netlify, so an oversized CloudFront Function is only a warning there.
    expect(line(/^_cloudfront\/viewer-response\.js {2}warning CloudFrontFunctionTooLarge {2}This CloudFront Function is 1[34]\.\d KB; CloudFront accepts at most 10 KB\.$/)).toHaveLength(1)
    expect(r.stdout).toMatch(/: [1-9]\d* errors?, /)
    expect(r.status).toBe(1)
  }, 120_000)

  // The check cache knows each page's file by its size and time: a page changed since, even to
  // the same size, is read and judged again; the others' HTML is not read at all.
  test('a page changed after a check, to the same size, is judged again with the check cache', async () => {
    const out = copyBuilt()
    const site = copySite()
    const run = () => check({ root: site, out, only: ['links', 'translations'] })
    expect((await run()).findings).toEqual([])
    const before = readFileSync(join(out, 'contact/index.html'), 'utf8')
    expect(before).toContain('href="/privacy/"')
    edit(out, 'contact/index.html', (html) => html.replace('href="/privacy/"', 'href="/privacz/"'))
    expect(readFileSync(join(out, 'contact/index.html'), 'utf8')).toHaveLength(before.length)
    const again = await run()
    expect(again.findings.map((f) => `${f.file} ${f.code} ${f.message}`)).toEqual(['contact/index.html BrokenLink /privacz/ answers status 404'])
    expect(again.counts.links!.unchanged).toBeGreaterThan(0)
  }, 120_000)

  // The check cache keeps, with each page's record, the pages it links to: once one of them is
  // gone, the pages linking to it are judged again, though their own files did not change.
  test('a page removed after a check: the unchanged pages that link to it are judged again', async () => {
    const out = copyBuilt()
    const site = copySite()
    const run = () => check({ root: site, out, only: ['links'] })
    expect((await run()).findings).toEqual([])
    rmSync(join(out, 'services/ear'), { recursive: true })
    const names = new RegExp(`(?:href|src)="(?:${base.replace(/\./g, '\\.')})?/services/ear/"`)
    const linking = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && names.test(readFileSync(join(out, f), 'utf8')))
    expect(linking.length).toBeGreaterThan(1)
    const again = await run()
    const broken = new Set(again.findings.filter((f) => f.code === 'BrokenLink' && f.message.startsWith('/services/ear/ answers status 404')).map((f) => f.file))
    expect([...broken].sort()).toEqual(linking.sort())
    expect(again.counts.links).toMatchObject({ judged: linking.length })
  }, 120_000)

  // A large site's links are checked twenty pages a run; what one run found answering, the next takes as read.
  test('links: runs of a few pages each find the same broken links and anchors as one run', async () => {
    const out = copyBuilt()
    const planted = ['services/ear/index.html', 'privacy/index.html', 'thank-you/index.html', 'cn/contact/index.html']
    for (const page of planted) intoMain(out, page, '<p><a href="/contact/#no-such-anchor">anchor</a> <a href="/gone/">gone</a> <a href="/services/">fine</a></p>')
    const pages = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).sort()
      .map((path) => ({ path, html: readFileSync(join(out, path), 'utf8') }))
    const describe = (findings: { file?: string; message: string }[]) => findings.map((f) => `${f.file}  ${f.message}`).sort()
    const inRunsOf = async (batch: number) => describe((await checkLinks(pages, base, () => linksServed(out), { batch })).findings)
    const inOneRun = await inRunsOf(100)
    const inRuns = await inRunsOf(5)
    expect(inOneRun).toEqual(planted.flatMap((page) => [`${page}  /contact/#no-such-anchor names an anchor that is not on the page`, `${page}  /gone/ answers status 404`]).sort())
    expect(inRuns).toEqual(inOneRun)
  }, 120_000)

  // linkinator reports a link it does not follow once a run; the check cache keeps each page's own.
  test('links to other sites: every page that names one is known to, in one run or in several', async () => {
    const out = copyBuilt()
    const naming = ['privacy/index.html', 'services/ear/index.html', 'thank-you/index.html']
    for (const page of naming) intoMain(out, page, '<p><a href="https://example.net/shared?a=1&amp;b=2">elsewhere</a></p>')
    const pages = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).sort()
      .map((path) => ({ path, html: readFileSync(join(out, path), 'utf8') }))
    for (const batch of [100, 2]) {
      const { external } = await checkLinks(pages, base, () => linksServed(out), { batch })
      expect(external.filter((e) => e.url === 'https://example.net/shared?a=1&b=2').map((e) => e.from).sort()).toEqual(naming)
      const whatsApp = external.filter((e) => e.url.startsWith('https://wa.me/'))
      expect(whatsApp.length).toBeGreaterThan(2) // the contact button is on every page
    }
  }, 120_000)

  test('accessibility, security policy and budgets, measured in the browser', async () => {
    const out = copyBuilt()
    // Three pages are enough here; the others go, so the browser visits only these.
    const keep = new Set(['index.html', 'contact/index.html', 'services/ear/index.html'])
    for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) if (file.endsWith('.html') && !keep.has(file)) rmSync(join(out, file))
    intoMain(out, 'contact/index.html', '<img src="/favicon.svg" width="10" height="10"><script>document.title = "injected"</script>')
    const stylesheet = readdirSync(join(out, 'assets')).find((f) => f.endsWith('.css'))!
    edit(out, `assets/${stylesheet}`, (css) => `${css}/* ${randomBytes(24 * 1024).toString('base64')} */`)

    const report = await check({ out, root: projectRoot, only: ['accessibility', 'budgets'] })
    const found = report.findings.map((d) => `${d.file}  ${d.code}`)
    expect(found).toContain('contact/index.html  axe/image-alt')
    expect(found).toContain('contact/index.html  CspViolation')
    expect(report.findings.find((d) => d.code === 'CspViolation')!.message).toBe('The Content-Security-Policy script-src-elem blocked inline code.')
    for (const page of keep) expect(found).toContain(`${page}  budget/pageCss`)
    expect(found.filter((f) => f.startsWith('index.html') || f.startsWith('services/'))).toEqual(['index.html  budget/pageCss', 'services/ear/index.html  budget/pageCss'])
    expect(Object.keys(report.counts)).toEqual(['accessibility', 'budgets'])
  }, 120_000)
})
