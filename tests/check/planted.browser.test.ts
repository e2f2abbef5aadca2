/**
 * Nothing `check` finds is lost by judging content without the browser and templates once per
 * kind: a copy of clinic-build and of the site, with one planted problem of each kind a check
 * can find, built, then checked with an empty check cache, again with the cache, and with --all,
 * and in either browser the check may drive. Each run must report every problem, naming its file.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { copyPackage, copySite, edit, runCli } from '../support/helpers.ts'

const ARTICLE = 'content/en/blog/a-guide-to-double-eyelid-surgery.md'

/** Each planted problem, as a pattern its finding's line must match (file, rule, message). */
const PLANTED: Record<string, RegExp> = {
  'an image without alt text (template)': /^dr-(evelyn-quah|nathaniel-goh)\/index\.html:\d+:\d+ {2}axe\/image-alt {2}/m,
  'an empty link (Markdown)': new RegExp(`^${ARTICLE}:\\d+:\\d+ {2}axe/link-name {2}`, 'm'),
  'a skipped heading level (Markdown)': new RegExp(`^${ARTICLE}:\\d+:\\d+ {2}axe/heading-order {2}`, 'm'),
  'a duplicate id (Markdown)': new RegExp(`^${ARTICLE}:\\d+:\\d+ {2}(axe/duplicate-id\\S*|DuplicateId) {2}`, 'm'),
  'a broken internal link (template)': /^dr-(evelyn-quah|nathaniel-goh)\/index\.html:\d+:\d+ {2}BrokenLink {2}\/no-such-page\/ answers status 404$/m,
  'a broken #anchor (template)': /^dr-(evelyn-quah|nathaniel-goh)\/index\.html:\d+:\d+ {2}BrokenLink {2}\/contact\/#no-such-anchor names an anchor that is not on the page$/m,
  'a template that breaks the security policy': /^(cn\/)?dr-(evelyn-quah|nathaniel-goh)\/index\.html {2}CspViolation {2}The Content-Security-Policy style-src-attr blocked inline code\.$/m,
  'a page over its JavaScript budget': /^(cn\/)?contact\/index\.html {2}budget\/pageJs {2}JavaScript of one page is \d+\.\d KB gzipped, over its budget of 25\.0 KB\.$/m,
  'a low-contrast colour in a template\'s CSS': /^(cn\/)?dr-(evelyn-quah|nathaniel-goh)\/index\.html {2}axe\/color-contrast {2}/m,
}

let pkg: string
let site: string
let bin: string
beforeAll(async () => {
  pkg = copyPackage()
  bin = join(pkg, 'bin/clinic-build.js')
  edit(pkg, 'templates/pages/Doctor.tsx', (tsx) => tsx.replace('<div className="wrap doctor">', [
    '<div className="wrap doctor">',
    '<img src="/favicon.svg" width={16} height={16} />',
    '<p style={{ outline: \'1px solid\' }}><a href="/no-such-page/">Gone</a> <a href="/contact/#no-such-anchor">Nowhere</a></p>',
  ].join('')))
  edit(pkg, 'templates/styles/site.css', (css) => `${css}\n.doctor__text p { color: #c8c8c8; }\n`)
  edit(pkg, 'src/client/islands/map.ts', (ts) => `${ts}\nexport const ballast = '${randomBytes(36 * 1024).toString('base64')}'\n`)
  site = copySite()
  edit(site, ARTICLE, (md) => `${md}\n\n##### A level too deep\n\nSee [](/contact/) and <span id="twice">one</span> <span id="twice">two</span>.\n`)
  const built = await runCli(['--root', site, '--out', join(site, 'dist')], site, bin)
  expect(built.stderr).toBe('')
  expect(built.status).toBe(0)
}, 180_000)
afterAll(() => { for (const dir of [pkg, site]) rmSync(dir, { recursive: true, force: true }) })

describe('one planted problem of each kind', () => {
  const run = (...args: string[]) => runCli(['check', '--root', site, '--out', join(site, 'dist'), ...args], site, bin)
  const expectEveryProblem = (stdout: string) => {
    const missing = Object.entries(PLANTED).filter(([, line]) => !line.test(stdout)).map(([name]) => name)
    expect(missing, stdout).toEqual([])
  }

  test('is reported by a run with no check cache, which opens one page of each kind', async () => {
    rmSync(join(site, '.clinic/cache/check.json'), { force: true })
    const r = await run()
    expect(r.status).toBe(1)
    expectEveryProblem(r.stdout)
    const opened = Number(/^accessibility +.*?(\d+) opened in the browser/m.exec(r.stdout)?.[1])
    const pages = readdirSync(join(site, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && !f.startsWith('admin/')).length
    expect(opened).toBeGreaterThan(10)
    expect(opened).toBeLessThan(pages / 2)
  }, 300_000)

  // Findings from files are kept with the pages; a browser's failure is judged again, in case it was the browser's.
  test('is reported again with the check cache, which opens again only the pages that failed in the browser', async () => {
    const r = await run()
    expect(r.status).toBe(1)
    expectEveryProblem(r.stdout)
    expect(r.stdout).toMatch(/^links +\d+ unchanged +[\d.]+ s$/m)
    const opened = Number(/^accessibility +.*?(\d+) opened in the browser/m.exec(r.stdout)?.[1])
    expect(opened).toBeGreaterThan(0)
    expect(opened).toBeLessThanOrEqual(8)
  }, 300_000)

  test('is reported by --all, which opens every page', async () => {
    const r = await run('--all')
    expect(r.status).toBe(1)
    expectEveryProblem(r.stdout)
    const pages = readdirSync(join(site, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && !f.startsWith('admin/')).length
    expect(r.stdout).toMatch(new RegExp(`^accessibility +.*${pages} opened in the browser`, 'm'))
  }, 600_000)

  // The check opens pages in Debian's headless shell of Chromium when it is installed (chromium.ts).
  test('is reported alike by Debian\'s Chromium and by its headless shell, which the check prefers', async () => {
    const findingsIn = async (browser: string) => {
      rmSync(join(site, '.clinic/cache/check.json'), { force: true })
      const r = await runCli(['check', '--root', site, '--out', join(site, 'dist')], site, bin, { CHROMIUM_PATH: browser })
      expect(r.status, r.stderr).toBe(1)
      expectEveryProblem(r.stdout)
      expect(r.stdout).toMatch(new RegExp(`^Pages opened in ${browser}\\.$`, 'm'))
      // Every line but the times and the browser's name.
      return r.stdout.split('\n').filter((line) => !/\d\.\d s\b|^Pages opened in /.test(line))
    }
    const shell = await findingsIn('/usr/bin/chromium-headless-shell')
    expect(shell.filter((line) => /axe\/|CspViolation|budget\//.test(line)).length).toBeGreaterThan(5)
    expect(await findingsIn('/usr/bin/chromium')).toEqual(shell)
  }, 300_000)
})
