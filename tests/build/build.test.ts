/** The real site, built in memory and on disk: every route of the specification, and nothing else. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, emptyCache, type BuildResult } from '../../src/index.ts'
import { BILINGUAL_PATHS, contentsOf, copySite, ENGLISH_ONLY_PATHS, filesIn, projectRoot } from '../support/helpers.ts'

const BASE = 'https://www.amberlin-clinic.example'
let result: BuildResult
/** Every onProgress call of that build, as [done, total]. */
const progress: [number, number][] = []
const html = (path: string) => result.files.find((f) => f.path === path)!.contents as string
const head = (page: string, pattern: RegExp) => [...page.matchAll(pattern)].map((m) => m[1])
/** Every file under `dir`, relative to it with forward slashes, sorted. */
const filesUnder = (dir: string) => [...filesIn(dir, () => true).keys()]

beforeAll(async () => {
  result = await build({ root: projectRoot, write: false, onProgress: (done, total) => progress.push([done, total]) })
})

test('exposes the build function and its in-memory cache', async () => {
  expect(Object.keys(await import('../../src/index.ts')).sort()).toEqual(['build', 'emptyCache'])
})

test('builds without diagnostics', () => {
  expect(result.diagnostics).toEqual([])
  expect(result.ok).toBe(true)
})

test('emits exactly the documented files', () => {
  const pages = [
    ...BILINGUAL_PATHS.flatMap((p) => [p, `/cn${p}`]),
    ...ENGLISH_ONLY_PATHS,
  ].map((p) => `${p.slice(1)}index.html`)
  // The hero image in three widths and three formats (the source is 2400 px wide).
  const images = [480, 960, 1600].flatMap((w) => ['avif', 'jpg', 'webp'].map((f) => `assets/images/arches.[hash]-${w}.${f}`))
  const sharing = [
    ...['home', 'services', 'service', 'doctor', 'contact', 'thank-you', 'page', 'not-found'].flatMap((t) => [`og/${t}-en.png`, `og/${t}-cn.png`]),
    'og/blog-index-en.png', 'og/article-en.png', 'og/logo.png', 'blog/feed.xml',
  ]
  const hosts = ['_headers', '_redirects', '.nojekyll', '_cloudfront/viewer-request.js', '_cloudfront/viewer-response.js', '_cloudfront/key-value-store.json']
  // The content editor (tests/admin/outputs.test.ts): its script, the chunks it fetches on use, the preview's worker.
  const admin = ['admin/index.html', 'admin/config.json', 'admin/preview.json', 'admin/editor.[hash].js', 'admin/body-reader.[hash].js', 'admin/preview.[hash].js', 'admin/faithful-save.[hash].js',
    'admin/unavailable.[hash].js', 'admin/webp.[hash].js', 'admin/webp_enc.[hash].js', 'admin/webp_enc_simd.[hash].js']
  const expected = [...pages, '404.html', 'cn/404.html', 'sitemap.xml', 'robots.txt', ...sharing, ...hosts, ...admin, 'assets/main.[hash].js', 'assets/site.[hash].css', ...images].sort()
  // Island chunks (assets/chunks/) come and go with the islands; each island's tests cover its own.
  // So do the chunks esbuild shares between the editor's parts (admin/chunk.*); outputs.test.ts weighs them.
  const emitted = result.files.filter((f) => !f.path.startsWith('assets/chunks/') && !f.path.startsWith('admin/chunk.'))
    .map((f) => f.path.replace(/\.[A-Z0-9]{8}\.(js|css)$/, '.[hash].$1').replace(/\.[0-9a-f]{10}-/, '.[hash]-')).sort()
  expect(emitted).toEqual(expected)
  expect(pages).toHaveLength(48)
})

describe('every page', () => {
  const routes = () => result.table!.routes.filter((r) => r.status === 200)

  test('has its language, title, description and self-referencing canonical', () => {
    for (const route of routes()) {
      const page = html(route.output)
      expect(page.startsWith('<!doctype html><html lang="' + (route.locale === 'cn' ? 'zh' : 'en') + '"'), route.url).toBe(true)
      const [title] = head(page, /<title>([^<]*)<\/title>/g)
      if (route.template === 'home') expect(title).toBe('Amberlin Plastic Surgery Clinic')
      else expect(title, route.url).toMatch(/^[^|]+ \| Amberlin Plastic Surgery Clinic$/)
      expect(head(page, /<meta name="description" content="([^"]+)"/g), route.url).toHaveLength(1)
      expect(head(page, /<link rel="canonical" href="([^"]+)"/g)).toEqual([BASE + route.url])
      expect(head(page, /<meta property="og:url" content="([^"]+)"/g)).toEqual([BASE + route.url])
    }
  })

  test('lists hreflang alternates only where the other language exists', () => {
    for (const route of routes()) {
      const links = head(html(route.output), /<link rel="alternate" hreflang="([^"]+)"/g)
      if (route.path.startsWith('/blog/')) expect(links, route.url).toEqual([])
      else expect(links, route.url).toEqual(['en', 'zh', 'x-default'])
    }
    expect(html('cn/services/ear/index.html')).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}/services/ear/">`)
    expect(html('index.html')).toContain('<meta property="og:locale" content="en_SG"><meta property="og:locale:alternate" content="zh_CN">')
  })

  test('has no internal link without a trailing slash', () => {
    for (const route of result.table!.routes) {
      const hrefs = head(html(route.output), /href="(\/[^"#?]*)/g).filter((h) => !/\.[a-z]+$/.test(h!))
      for (const h of hrefs) expect(h, `${route.url} links to ${h}`).toMatch(/\/$/)
    }
  })
})

test('the 404 pages speak each language and link home', () => {
  const en = html('404.html')
  expect(en).toContain('<html lang="en"')
  expect(en).toContain('<title>This page could not be found | Amberlin Plastic Surgery Clinic</title>')
  expect(en).toMatch(/<h1>This page could not be found<\/h1>/)
  expect(en).toContain('<a class="button" href="/">Back to the home page</a>')
  const cn = html('cn/404.html')
  expect(cn).toContain('<html lang="zh"')
  expect(cn).toMatch(/<h1>找不到此页面<\/h1>/)
  expect(cn).toContain('<a class="button" href="/cn/">返回首页</a>')
  expect(en).toContain('<meta name="robots" content="noindex">')
})

test('the sitemap lists every indexable page once, and robots.txt points at it', () => {
  const xml = html('sitemap.xml')
  const locs = head(xml, /<loc>([^<]+)<\/loc>/g)
  const expected = [...BILINGUAL_PATHS.flatMap((p) => [p, `/cn${p}`]), ...ENGLISH_ONLY_PATHS]
    .filter((p) => !p.endsWith('thank-you/')).map((p) => BASE + p).sort()
  expect(locs.sort()).toEqual(expected)
  expect(html('robots.txt')).toContain(`Sitemap: ${BASE}/sitemap.xml`)
})

test('asset names carry a content hash and pages link to them', () => {
  const css = result.files.find((f) => f.path.endsWith('.css'))!.path
  expect(css).toMatch(/^assets\/site\.[A-Z0-9]{8}\.css$/)
  expect(html('index.html')).toContain(`href="/${css}"`)
})

describe('on disk', () => {
  let out: string
  let written: BuildResult
  beforeAll(async () => {
    out = join(mkdtempSync(join(tmpdir(), 'clinic-out-')), 'dist')
    written = await build({ root: projectRoot, out })
  })

  test('writes the site to disk, static files included', () => {
    expect(written.ok).toBe(true)
    expect(readFileSync(join(out, 'cn/contact/index.html'), 'utf8')).toContain('<html lang="zh"')
    expect(readFileSync(join(out, 'favicon.svg'), 'utf8')).toBe(readFileSync(join(projectRoot, 'static/favicon.svg'), 'utf8'))
    expect(existsSync(`${out}.tmp-${process.pid}`)).toBe(false)
  })

  test('holds one HTML file per route, the two 404 pages included, and nothing else', () => {
    const pages = filesUnder(out).filter((f) => f.endsWith('.html') && !f.startsWith('admin/')) // the content editor is no page
    expect(pages).toEqual(written.table!.routes.map((r) => r.output).sort())
    const documented = [...BILINGUAL_PATHS.flatMap((p) => [p, `/cn${p}`]), ...ENGLISH_ONLY_PATHS].map((p) => `${p.slice(1)}index.html`)
    expect(pages).toEqual([...documented, '404.html', 'cn/404.html'].sort())
  })

  test('holds exactly the generated files and the static folder, byte for byte', () => {
    const staticFiles = filesUnder(join(projectRoot, 'static'))
    expect(filesUnder(out)).toEqual([...new Set([...written.files.map((f) => f.path), ...staticFiles])].sort())
    for (const f of written.files) expect(Buffer.compare(readFileSync(join(out, f.path)), Buffer.from(f.contents)), f.path).toBe(0)
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toMatch(/^<\?xml [^>]+>\n<urlset /)
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toContain('Sitemap: https://www.amberlin-clinic.example/sitemap.xml')
  })
})

test('worker threads produce the same site as a build in one thread', async () => {
  const threaded = await build({ root: projectRoot, write: false, threads: 2 })
  expect(threaded.work?.threads).toBe(2)
  const contents = (r: BuildResult) => Object.fromEntries(r.files.map((f) => [f.path, Buffer.from(f.contents).toString('base64')]))
  expect(contents(threaded)).toEqual(contents(result))
})

test('an in-memory cache renders only what changed between two builds', async () => {
  const cache = emptyCache()
  const first = await build({ root: projectRoot, write: false, cache })
  expect(first.pages).toEqual({ reused: 0, rendered: first.table!.routes.length })
  const second = await build({ root: projectRoot, write: false, cache })
  expect(second.pages).toEqual({ reused: first.table!.routes.length, rendered: 0 })
  // As text: a deep equality of the editor bundle's bytes, one by one, took a minute.
  expect(contentsOf(second.files)).toEqual(contentsOf(first.files))
})

test('reports render progress up to every page of the site', () => {
  const total = result.table!.routes.length
  expect(progress.length).toBeGreaterThan(0)
  for (const [, of] of progress) expect(of).toBe(total)
  const done = progress.map(([d]) => d)
  expect(done).toEqual([...done].sort((a, b) => a - b))
  expect(progress.at(-1)).toEqual([total, total])
})

describe('drafts', () => {
  const DRAFT_TITLE = 'A Draft Note on Recovery'
  let site: string
  let out: string
  let production: BuildResult
  beforeAll(async () => {
    site = copySite()
    out = join(site, 'dist')
    const article = readFileSync(join(site, 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'), 'utf8')
    writeFileSync(join(site, 'content/en/blog/draft-note.md'), article.replace(/^title: .*$/m, `title: ${DRAFT_TITLE}\ndraft: true`))
    // A page waiting for its translation: a draft needs none.
    writeFileSync(join(site, 'content/en/aftercare.md'), '---\ntitle: Aftercare Draft\ndescription: Not ready yet.\ndraft: true\n---\n\nText.\n')
    production = await build({ root: site, out })
  })

  test('a production build leaves pages marked draft: true out of the pages, sitemap, feed and lists', () => {
    expect(production.diagnostics).toEqual([])
    expect(production.ok).toBe(true)
    expect(existsSync(join(out, 'blog/how-to-prepare-for-a-rhinoplasty/index.html'))).toBe(true)
    expect(existsSync(join(out, 'blog/draft-note'))).toBe(false)
    expect(existsSync(join(out, 'aftercare'))).toBe(false)
    const sitemap = readFileSync(join(out, 'sitemap.xml'), 'utf8')
    expect(sitemap).not.toContain('/blog/draft-note/')
    expect(sitemap).not.toContain('/aftercare/')
    for (const file of filesUnder(out).filter((f) => /\.(html|xml)$/.test(f))) {
      expect(readFileSync(join(out, file), 'utf8'), file).not.toContain(DRAFT_TITLE)
    }
  })

  test('build({ drafts: true }) includes them', async () => {
    writeFileSync(join(site, 'content/cn/aftercare.md'), '---\ntitle: 术后护理草稿\ndescription: 尚未完成。\ndraft: true\n---\n\n正文。\n')
    const preview = await build({ root: site, write: false, drafts: true })
    expect(preview.ok).toBe(true)
    const page = (path: string) => preview.files.find((f) => f.path === path)?.contents as string | undefined
    expect(page('blog/draft-note/index.html')).toContain(`<h1>${DRAFT_TITLE}</h1>`)
    expect(page('aftercare/index.html')).toContain('<h1>Aftercare Draft</h1>')
    expect(page('cn/aftercare/index.html')).toContain('<h1>术后护理草稿</h1>')
    expect(page('blog/index.html')).toContain(DRAFT_TITLE)
  })
})
