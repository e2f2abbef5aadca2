/**
 * What a build writes for the content editor: /admin/ with its configuration, the preview's data
 * and the bundle; kept out of the sitemap, the feed and search engines; its own security policy in
 * `_headers`; nothing of it with `admin: false`; the same bytes on every build.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/index.ts'
import type { AdminConfig } from '../../src/admin/config.ts'
import { emptyCache } from '../../src/build/cache.ts'
import { readProject, rereadProject } from '../../src/content/read.ts'
import { packageDir } from '../../src/util/package.ts'
import { gzipSize } from '../../src/assets/budgets.ts'
import { copySite, edit, projectRoot } from '../support/helpers.ts'

let result: BuildResult
const text = (r: BuildResult, path: string) => {
  const file = r.files.find((f) => f.path === path)?.contents
  return typeof file === 'string' ? file : file && new TextDecoder().decode(file)
}

beforeAll(async () => { result = await build({ root: projectRoot, write: false, cache: false }) })

/** A script of the bundle and the chunks it imports statically, which load before it runs; import() (the preview, the save) waits for use. */
function staticImports(entry: string): Set<string> {
  const loaded = new Set<string>()
  const visit = (path: string) => {
    if (loaded.has(path)) return
    loaded.add(path)
    for (const m of text(result, path)!.matchAll(/(?:^|[;}])import(?:[^"'();]*?from)?\s*"\.\/([^"]+\.js)"/g)) visit(`admin/${m[1]}`)
  }
  visit(entry)
  return loaded
}

describe('/admin/', () => {
  test('a page that loads the bundled editor, its configuration and the preview\'s data, from the site\'s origin only', () => {
    const page = text(result, 'admin/index.html')!
    const [, script, bodyReader] = /<script type="module" src="(\/admin\/editor\.[A-Z0-9]+\.js)" data-body-reader="(\/admin\/body-reader\.[A-Z0-9]+\.js)"><\/script>/.exec(page) ?? []
    expect(script).toBeDefined()
    expect(result.files.map((f) => f.path)).toContain(script!.slice(1))
    // The preview's worker for long bodies: a worker has no document, so nothing it loads may use one.
    const workerLoads = [...staticImports(bodyReader!.slice(1))]
    expect(workerLoads.length).toBeGreaterThan(1)
    expect(workerLoads.filter((path) => text(result, path)!.includes('document.'))).toEqual([])
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//)
    const config = JSON.parse(text(result, 'admin/config.json')!) as AdminConfig
    expect(config.decap.collections.map((c) => c.name)).toEqual(['services', 'doctors', 'pages', 'articles', 'home-page', 'services-page', 'contact-page', 'thank-you-page', 'blog-page'])
    const preview = JSON.parse(text(result, 'admin/preview.json')!) as { docs: { id: string; markdown: string }[]; assets: { stylesheet: string } }
    expect(preview.docs.map((d) => d.id)).toContain('content/cn/services/ear.md')
    expect(preview.docs.every((d) => d.markdown === '')).toBe(true)
    expect(preview.assets.stylesheet).toMatch(/^\/assets\/site\.[A-Z0-9]+\.css$/)
  })

  test('out of the sitemap and the feed; noindex in the page and in its headers', () => {
    expect(text(result, 'sitemap.xml')).not.toContain('/admin')
    expect(text(result, 'blog/feed.xml')).not.toContain('/admin')
    expect(result.table!.routes.some((r) => r.url.startsWith('/admin'))).toBe(false)
    expect(text(result, 'admin/index.html')).toContain('<meta name="robots" content="noindex, nofollow">')
    expect(text(result, '_headers')).toMatch(/\n\/admin\/\*\n(  .*\n)*  X-Robots-Tag: noindex, nofollow\n/)
  })

  test('its own security policy, in _headers after the site\'s and in the page; no unsafe-eval, no other origin', () => {
    const headers = text(result, '_headers')!
    const policy = /\n\/admin\/\*\n(?:  ! .*\n)*  Content-Security-Policy: (.*)\n/.exec(headers)?.[1]
    expect(headers.indexOf('/admin/*')).toBeGreaterThan(headers.indexOf('/*'))
    // Detached from the site-wide rule first: Cloudflare Pages would join the two policies, and a browser enforce both.
    expect(headers).toMatch(/\n\/admin\/\*\n  ! Content-Security-Policy\n  Content-Security-Policy: /)
    expect(policy).toContain("script-src 'self';")
    expect(policy).not.toContain('unsafe-eval')
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toMatch(/https?:/) // Git Gateway answers on the site's own origin
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(text(result, 'admin/index.html')!)?.[1]
    expect(meta).toBe(policy!.replace("; frame-ancestors 'none'", ''))
    // The site's pages keep theirs: the editor's policy is not added to them.
    expect(text(result, 'index.html')).not.toContain('unsafe-inline')
  })

  test('the same bytes on a second build', async () => {
    const again = await build({ root: projectRoot, write: false, cache: false })
    for (const path of result.files.map((f) => f.path).filter((p) => p.startsWith('admin/'))) expect(text(again, path), path).toBe(text(result, path))
  })

  test('the same files from the dev server\'s builds, which keep them while only a body changes, as from a fresh build', async () => {
    const site = copySite()
    const cache = emptyCache()
    let project = await readProject(site, packageDir)
    const rebuilt = async (path: string, change: (t: string) => string) => {
      edit(site, path, change)
      project = await rereadProject(project, [path], packageDir)
      return build({ root: site, project, write: false, cache })
    }
    const adminFiles = (r: BuildResult) => r.files.filter((f) => f.path.startsWith('admin/')).map((f) => [f.path, text(r, f.path)])
    const first = await build({ root: site, project, write: false, cache })
    const bodyEdited = await rebuilt('content/en/services/ear.md', (t) => `${t}\nOne more sentence.\n`)
    expect(text(bodyEdited, 'admin/preview.json')).toBe(text(first, 'admin/preview.json'))
    const retitled = await rebuilt('content/en/services/ear.md', (t) => t.replace(/^title: .*$/m, 'title: Ear surgery, retitled'))
    expect(text(retitled, 'admin/preview.json')).toContain('Ear surgery, retitled')
    expect(adminFiles(retitled)).toEqual(adminFiles(await build({ root: site, write: false, cache: false })))
  })

  test('its first load, the script and the chunks it imports before it runs, is at most 1 MB gzipped', () => {
    const page = text(result, 'admin/index.html')!
    const entry = /<script type="module" src="\/(admin\/editor\.[A-Z0-9]+\.js)"/.exec(page)![1]!
    const loaded = staticImports(entry)
    const bytes = [...loaded].reduce((sum, path) => sum + gzipSize(result.files.find((f) => f.path === path)!.contents), 0)
    console.log(`the editor's first load: ${loaded.size} files, ${bytes.toLocaleString('en')} bytes gzipped`)
    expect(loaded.size).toBeGreaterThan(1)
    expect(bytes).toBeLessThanOrEqual(1024 * 1024)
    // The preview, and its worker, are not part of it.
    expect([...loaded].some((path) => /\/(preview|body-reader)\./.test(path))).toBe(false)
  })
})

describe('/admin/ on disk', () => {
  test('the preview follows the front matter and the messages, and after a body edit is what a fresh build writes; the bundle is the one built', async () => {
    const site = copySite()
    const out = join(site, 'dist')
    const written = () => readFileSync(join(out, 'admin/preview.json'), 'utf8')
    const fresh = async () => text(await build({ root: site, write: false, cache: false }), 'admin/preview.json')
    expect((await build({ root: site, out })).ok).toBe(true)
    // Copied from where the bundle is kept (OutputFile.source) since the first build made it.
    const bundled = (await build({ root: site, write: false, cache: false })).files.filter((f) => f.path.startsWith('admin/') && f.source)
    expect(bundled.map((f) => f.path)).toEqual(expect.arrayContaining([expect.stringMatching(/^admin\/editor\.\w+\.js$/)]))
    for (const file of bundled) expect(readFileSync(join(out, file.path)).equals(Buffer.from(file.contents)), file.path).toBe(true) // toEqual: 40 s for 7 MB
    edit(site, 'content/en/services/ear.md', (t) => `${t}\nOne more sentence.\n`)
    expect((await build({ root: site, out })).ok).toBe(true)
    expect(written()).toBe(await fresh())
    edit(site, 'content/en/services/ear.md', (t) => t.replace(/^title: .*$/m, 'title: Ear surgery, retitled'))
    expect((await build({ root: site, out })).ok).toBe(true)
    expect(written()).toContain('Ear surgery, retitled')
    edit(site, 'locales/en-SG.yaml', (t) => t.replace('  skip: Skip to main content', '  skip: Skip to the content'))
    expect((await build({ root: site, out })).ok).toBe(true)
    expect(written()).toContain('Skip to the content')
    expect(written()).toBe(await fresh())
  })
})

describe('site.yaml decides', () => {
  test('admin: false leaves the editor out', async () => {
    const site = copySite()
    edit(site, 'content/site.yaml', (t) => t.replace(/\nadmin:\n(  .*\n)*/, '\nadmin: false\n'))
    const built = await build({ root: site, write: false, cache: false })
    expect(built.ok).toBe(true)
    expect(built.files.filter((f) => f.path.startsWith('admin/'))).toEqual([])
    expect(text(built, '_headers')).not.toContain('/admin/')
  })

  test('a GitHub backend lets the editor reach GitHub\'s API and avatars, and nothing else', async () => {
    const site = copySite()
    edit(site, 'content/site.yaml', (t) => t.replace(/\nadmin:\n(  .*\n)*/, '\nadmin:\n  backend: { name: github, repo: amberlin/website }\n'))
    const built = await build({ root: site, write: false, cache: false })
    const policy = /\n\/admin\/\*\n(?:  ! .*\n)*  Content-Security-Policy: (.*)\n/.exec(text(built, '_headers')!)![1]!
    expect([...policy.matchAll(/https:\/\/[^\s;]+/g)].map((m) => m[0]).sort()).toEqual(['https://api.github.com', 'https://avatars.githubusercontent.com'])
  })

  test('a page at /admin/ is an error while the editor is built', async () => {
    const site = copySite()
    edit(site, 'content/en/privacy.md', (t) => t.replace('title: Privacy notice', 'title: Privacy notice\nslug: admin'))
    edit(site, 'content/cn/privacy.md', (t) => t.replace(/^title: (.*)$/m, 'title: $1\nslug: admin'))
    const built = await build({ root: site, write: false, cache: false })
    expect(built.ok).toBe(false)
    // /cn/admin/ is another folder: only the default language's page takes the editor's place.
    expect(built.diagnostics.filter((d) => d.code === 'AdminUrlTaken').map((d) => `${d.file}:${d.line}`)).toEqual(['content/en/privacy.md:3'])
  })
})

describe('on S3 behind CloudFront', () => {
  test('the functions serve /admin/ and give it the editor\'s headers instead of the site\'s', async () => {
    const { distribution, keyValueStore, loadFunction } = await import('../support/cloudfront.ts')
    const files = new Map(result.files.filter((f) => typeof f.contents === 'string').map((f) => [f.path, f.contents as string]))
    const store = keyValueStore(files.get('_cloudfront/key-value-store.json')!)
    const visit = distribution(files, loadFunction(files.get('_cloudfront/viewer-request.js')!, store), loadFunction(files.get('_cloudfront/viewer-response.js')!, store))
    const admin = await visit('/admin/')
    expect(admin).toMatchObject({ status: 200, originKey: 'admin/index.html' })
    expect(admin.headers['content-security-policy']).toBe(/\n\/admin\/\*\n(?:  ! .*\n)*  Content-Security-Policy: (.*)\n/.exec(text(result, '_headers')!)![1])
    expect(admin.headers['x-robots-tag']).toBe('noindex, nofollow')
    expect(await visit('/admin')).toMatchObject({ status: 301, headers: { location: '/admin/' } })
    expect((await visit('/contact/')).headers['content-security-policy']).not.toContain('unsafe-inline')
  })
})
