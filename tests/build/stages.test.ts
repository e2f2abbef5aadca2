/** Each stage on its own, with literal inputs; the read and write stages on small folders in a temporary directory. */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { describe, expect, test } from 'vitest'
import { factsOf, parseBody } from '../../src/markdown/body.ts'
import { collect } from '../../src/routes/collections.ts'
import { formatDiagnostic } from '../../src/errors.ts'
import { checkLinks } from '../../src/routes/links.ts'
import { checkTemplateKeys, loadMessages } from '../../src/content/messages.ts'
import { bodyAfter, headOf, parseDoc, parseDocs, splitFile } from '../../src/content/parse.ts'
import { buildRouteTable } from '../../src/routes/routes.ts'
import { listFiles, readProject } from '../../src/content/read.ts'
import { parseSite } from '../../src/content/site.ts'
import { robots, sitemap } from '../../src/routes/sitemap.ts'
import { formatSummary, summarise } from '../../src/build/summary.ts'
import { templateVersions } from '../../src/render/template-versions.ts'
import type { Route, RouteTable, SiteConfig } from '../../src/types.ts'
import { removalsFinished, spareFolder, staticOutputs, writeSite } from '../../src/build/write.ts'
import { survey } from '../../src/build/survey.ts'
import { bytesAndTime, filesIn, projectRoot } from '../support/helpers.ts'

const siteText = readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8')
const site = parseSite({ path: 'content/site.yaml', text: siteText }).site as SiteConfig

const service = (locale: string, slug: string, extra = '') => ({
  path: `content/${locale}/services/${slug}.md`,
  text: `---\ntitle: ${slug}\ndescription: About ${slug}.\nsummary: A summary.\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-15\n${extra}---\n\nBody text.\n`,
})

describe('site configuration', () => {
  test('the shipped configuration is valid', () => {
    expect(site.name).toBe('Amberlin Plastic Surgery Clinic')
    expect(site.locales.map((l) => l.code)).toEqual(['en', 'cn'])
  })
  test('a wrong value is reported at its line', () => {
    const { diagnostics } = parseSite({ path: 'content/site.yaml', text: siteText.replace('baseUrl: https://www.amberlin-clinic.example', 'baseUrl: www.example.sg/') })
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatchObject({ code: 'InvalidSiteConfig', file: 'content/site.yaml', line: 9, column: 10 })
    expect(diagnostics[0]!.message).toContain('"baseUrl" is invalid: must be an origin')
  })
})

describe('parse', () => {
  test('derives locale, path and template from where the file lives', () => {
    const { doc } = parseDoc(service('cn', 'ear'), site)
    expect(doc).toMatchObject({ locale: 'cn', path: '/services/ear/', template: 'service' })
    expect(parseDoc({ path: 'content/en/index.md', text: '---\ntitle: Home\ndescription: D\nintro: I\n---\n' }, site).doc?.template).toBe('home')
  })
  test('a slug in front matter replaces the file name in the URL', () => {
    expect(parseDoc(service('en', 'nose', 'slug: rhinoplasty\n'), site).doc?.path).toBe('/services/rhinoplasty/')
  })
  test('reports invalid YAML with line and column', () => {
    const { diagnostics } = parseDoc({ path: 'content/en/contact.md', text: '---\ntitle: Contact\ndescription: Visit: us\n---\n' }, site)
    expect(diagnostics[0]).toMatchObject({ code: 'InvalidYaml', file: 'content/en/contact.md', line: 3, column: 14 })
  })
  test('reports a missing field and a wrong type at the field', () => {
    const { diagnostics } = parseDoc({ path: 'content/en/services/ear.md', text: '---\ntitle: 12\ndescription: D\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-15\n---\n' }, site)
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      'content/en/services/ear.md:2:8  InvalidFrontMatter  Front matter field "title" must be text, got a number.\n  hint: See "Front matter" in docs/editors.md for the fields each kind of page takes.',
      'content/en/services/ear.md:1:1  InvalidFrontMatter  Front matter field "summary" is required.\n  hint: See "Front matter" in docs/editors.md for the fields each kind of page takes.',
    ])
  })
  test('reports an unknown field (a typing mistake)', () => {
    const { diagnostics } = parseDoc(service('en', 'ear', 'reviwedOn: 2026-10-15\n'), site)
    expect(diagnostics[0]!.message).toBe('Front matter field "reviwedOn" is not a known field (a typing mistake?).')
  })
  // Known bug: an unknown field is reported at 1:1 (the opening ---), not at its own line, and of
  // several unknown fields in one file only the first is named. Flip to test() once fixed.
  test('reports each unknown field at its own line', () => {
    const { diagnostics } = parseDoc({ path: 'content/en/privacy.md', text: '---\ntitle: P\ndescription: D\nsumary: S\nreviwedOn: 2026-10-15\n---\n' }, site)
    expect(diagnostics.map((d) => [d.line, d.column, d.message])).toEqual([
      [4, 1, 'Front matter field "sumary" is not a known field (a typing mistake?).'],
      [5, 1, 'Front matter field "reviwedOn" is not a known field (a typing mistake?).'],
    ])
  })
  test('a body parses as GitHub-flavoured Markdown, whether or not it uses any of its extensions or looks as if it might', () => {
    const gfm = unified().use(remarkParse).use(remarkGfm)
    const shipped = (readdirSync(join(projectRoot, 'content'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(join(projectRoot, 'content', f), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, ''))
    const samples = ['Visit WWW.example.com.', 'See <https://a.example> and https://b.example/x.', 'Write to clinic@example.com.',
      'It is ~~gone~~ now.', '| a | b |\n|---|---|\n| 1 | 2 |', 'A note.[^1]\n\n[^1]: The note.', '- [ ] to do\n- [X] done',
      'Plain text with a [link](/services/) and *emphasis*, and 1 < 2.',
      'A [link](https://a.example/x "A title") and a [reference][r].\n\n[r]: https://b.example', '[Not a link](see https://c.example)',
      '\\[Escaped](https://d.example)', 'An entity: clinic&#64;example.com, https&#58;//e.example', '`https://f.example` in code',
      '![A drawing](https://g.example/x.png) and a <span>www.h.example</span>.',
      'A pipe in `a | b` code.', 'a | b\n--|--', '~one~ tilde', 'Not a note: [^ x]', '1. [x] done\n2. [ ] not yet', '* [\t] tab',
      'A pipe as an entity &#124; and a tilde &#126;&#126;x&#126;&#126;', '> | quoted | table |\n> |---|---|', '[^a]: Only a definition.',
      '## A heading\n\nText with **bold** and _emphasis_, a [link](/blog/x/).\n\n- one\n- two\n\n> A quote.']
    expect(shipped.length).toBeGreaterThan(40)
    for (const markdown of [...shipped, ...samples]) {
      expect(parseBody({ markdown, bodyLine: 1 }), markdown.slice(0, 60)).toEqual(gfm.parse(markdown))
    }
  })
  test('reports an image without alt text at its line in the file', () => {
    const { doc } = parseDoc({ path: 'content/en/privacy.md', text: '---\ntitle: P\ndescription: D\n---\n\nText.\n\n![](/favicon.svg)\n' }, site)
    expect(factsOf(doc!, parseBody(doc!)).diagnostics).toMatchObject([{ code: 'MissingAltText', line: 8, column: 1 }])
  })
  // A body edit re-uses the front matter read before (src/build/build.ts parseKnown).
  test('a new body after the same front matter block splits as gray-matter splits it, and nothing else does', () => {
    const page = (head: string, body: string) => ({ path: 'content/en/privacy.md', text: head + body })
    const heads = ['---\ntitle: P\ndescription: D\n---\n', '---\n---\n'] // line endings are made \n on reading
    const bodies = ['', 'Text.\n', '\nText.\n', '\r\nText.', '---\nA rule above.\n', '\n---\nx: 1\n---\n']
    for (const head of heads) {
      const before = page(head, 'Old text.\n')
      expect(headOf(before)).toBe(head)
      for (const body of bodies) expect(bodyAfter(page(head, body), headOf(before)), JSON.stringify(head + body)).toEqual(splitFile(page(head, body)).body)
    }
    // Front matter that is never closed, or whose closing line goes on, ends elsewhere once text follows it.
    for (const [old, now] of [['---\ntitle: P\n', '---\ntitle: P\n---\nText.'], ['---\ntitle: P\n---', '---\ntitle: P\n---x\n'], ['---\ntitle: P\n---\n', '---\ntitle: Q\n---\n']]) {
      expect(bodyAfter(page('', now!), headOf(page('', old!)))).toBeUndefined()
    }
  })
  test('reports a reviewer who is not one of the doctors', () => {
    const file = service('en', 'ear')
    const { diagnostics } = parseDoc({ ...file, text: file.text.replace('reviewedBy: dr-evelyn-quah', 'reviewedBy: dr-who') }, site)
    expect(diagnostics).toMatchObject([{ code: 'UnknownDoctor', line: 5 }])
  })
})

describe('route table', () => {
  const table = (files: { path: string; text: string }[]) => {
    const { docs, unreadable } = parseDocs(files, site)
    return buildRouteTable(docs, site, collect(docs, ['en', 'cn']), unreadable)
  }
  test('pairs translations as alternates and adds a 404 page per locale', () => {
    const { table: t, diagnostics } = table([service('en', 'ear'), service('cn', 'ear')])
    expect(diagnostics).toEqual([])
    expect(t.routes.map((r) => r.url)).toEqual(['/404.html', '/cn/404.html', '/cn/services/ear/', '/services/ear/'])
    expect(t.byUrl.get('/cn/services/ear/')).toMatchObject({ output: 'cn/services/ear/index.html', alternates: { en: '/services/ear/', cn: '/cn/services/ear/' } })
  })
  test('two files with one URL are an error naming both', () => {
    const { diagnostics } = table([service('en', 'ear'), service('en', 'otoplasty', 'slug: ear\n'), service('cn', 'ear')])
    expect(diagnostics.map((d) => d.message)).toContain('/services/ear/ is produced by more than one file: content/en/services/ear.md and content/en/services/otoplasty.md.')
  })
  test('a page missing in one locale is an error, except in single-locale sections', () => {
    const article = { path: 'content/en/blog/a.md', text: '---\ntitle: A\ndescription: D\ndate: 2026-01-01\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-02-01\ntags: [a]\n---\n' }
    const { diagnostics } = table([service('en', 'ear'), article])
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'MissingTranslation', file: 'content/en/services/ear.md', message: 'This page has no translation: content/cn/services/ear.md is missing.' })])
  })
  test('the blog index paginates by the configured page size', () => {
    const articles = Array.from({ length: 45 }, (_, i) => ({ path: `content/en/blog/a${i}.md`, text: `---\ntitle: A${i}\ndescription: D\ndate: 2026-01-${String((i % 28) + 1).padStart(2, '0')}\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-02-01\ntags: [a]\n---\n` }))
    const index = { path: 'content/en/blog/index.md', text: '---\ntitle: Articles\ndescription: D\n---\n' }
    const { table: t } = table([index, ...articles])
    expect(t.routes.filter((r) => r.template === 'blog-index').map((r) => [r.url, r.page!.items.length])).toEqual([['/blog/', 20], ['/blog/page/2/', 20], ['/blog/page/3/', 5]])
  })
})

describe('links', () => {
  test('an internal link to no page is an error at the link', () => {
    const { docs } = parseDocs([{ path: 'content/en/privacy.md', text: '---\ntitle: P\ndescription: D\n---\n\nSee [contact](/contact) and [this page](/privacy/#top) and [mail](mailto:a@b.sg).\n' }], site)
    const { table } = buildRouteTable(docs, site, collect(docs, ['en', 'cn']))
    const facts = new Map(docs.map((d) => [d.id, factsOf(d, parseBody(d))]))
    expect(checkLinks(docs, facts, table, [])).toEqual([expect.objectContaining({ code: 'BrokenLink', line: 6, column: 5, message: 'Link to /contact, but no page has that URL.' })])
  })
})

describe('messages', () => {
  test('a key missing in one locale is reported against that file', () => {
    const files = [{ path: 'locales/en-SG.yaml', text: 'nav:\n  home: Home\n  contact: Contact\n' }, { path: 'locales/zh-CN.yaml', text: 'nav:\n  home: 首页\n' }]
    const { diagnostics, messages } = loadMessages(files, site)
    expect(messages.en).toEqual({ 'nav.home': 'Home', 'nav.contact': 'Contact' })
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'MissingMessage', file: 'locales/zh-CN.yaml', message: 'Message "nav.contact" is defined in locales/en-SG.yaml:3 but missing here.' })])
  })
  test('a template asking for an undefined key is reported at the call', () => {
    const found = checkTemplateKeys([{ path: 'templates/X.tsx', text: 'const a = 1\n  <p>{t(\'nav.home\')} {t(\'nav.nope\')}</p>\n' }], { en: { 'nav.home': 'Home' } })
    expect(found).toEqual([expect.objectContaining({ code: 'UnknownMessage', file: 'templates/X.tsx', line: 2, column: 23 })])
  })
})

describe('sitemap and robots', () => {
  test('list indexable pages with their alternates and point at the sitemap', () => {
    const { docs } = parseDocs([service('en', 'ear'), service('cn', 'ear')], site)
    const { table } = buildRouteTable(docs, site, collect(docs, ['en', 'cn']))
    const xml = sitemap(table, site).contents as string
    expect(xml).toContain('<url><loc>https://www.amberlin-clinic.example/services/ear/</loc><xhtml:link rel="alternate" hreflang="en" href="https://www.amberlin-clinic.example/services/ear/"/><xhtml:link rel="alternate" hreflang="zh" href="https://www.amberlin-clinic.example/cn/services/ear/"/><xhtml:link rel="alternate" hreflang="x-default" href="https://www.amberlin-clinic.example/services/ear/"/></url>')
    expect(xml).not.toContain('404')
    expect(robots(site).contents).toBe('User-agent: *\nAllow: /\n\nSitemap: https://www.amberlin-clinic.example/sitemap.xml\n')
  })
})

/** Writes `files` (path -> contents) under a fresh temporary folder and returns it. */
function folder(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-stage-'))
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), contents)
  }
  return dir
}

/** Every file under `dir` with its contents and the time it was written. */
const snapshot = (dir: string) => filesIn(dir, bytesAndTime)

/** The paths of every file under `dir`, relative to it, sorted. */
const snapshotNames = (dir: string) => [...filesIn(dir, () => true).keys()]

describe('read', () => {
  test('lists the Markdown pages, site.yaml, the images beside them, the locale files and the static files of a site folder', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])
    const root = folder({
      'content/site.yaml': siteText,
      'content/en/index.md': '---\ntitle: Home\n---\n',
      'content/en/services/ear.md': '---\ntitle: Ear\n---\n',
      'content/cn/index.md': '---\ntitle: 首页\n---\n',
      'content/en/notes.txt': 'not a page',
      'content/en/services/img/ear.svg': '<svg/>',
      'locales/en-SG.yaml': 'nav:\n  home: Home\n',
      'locales/zh-CN.yml': 'nav:\n  home: 首页\n',
      'locales/README.md': 'not a locale file',
      'static/favicon.svg': '<svg/>',
      'static/images/a.png': png,
    })
    const project = await readProject(root, projectRoot)
    expect(project).toMatchObject({
      root,
      siteFile: { path: 'content/site.yaml', text: siteText },
      content: [
        { path: 'content/cn/index.md', text: '---\ntitle: 首页\n---\n' },
        { path: 'content/en/index.md', text: '---\ntitle: Home\n---\n' },
        { path: 'content/en/services/ear.md', text: '---\ntitle: Ear\n---\n' },
      ],
      localeFiles: [{ path: 'locales/en-SG.yaml', text: 'nav:\n  home: Home\n' }, { path: 'locales/zh-CN.yml', text: 'nav:\n  home: 首页\n' }],
      staticFiles: ['favicon.svg', 'images/a.png'],
      // Of content/, the images are listed, to be published beside their pages; other files are not sources.
      contentImages: ['en/services/img/ear.svg'],
    })
    expect(Object.keys(project.contentImageVersions)).toEqual(['en/services/img/ear.svg'])
    // The templates come from the package, whatever the site folder holds.
    expect(project.templateFiles.map((f) => f.path)).toContain('templates/Head.tsx')
    expect(project.templateFiles.find((f) => f.path === 'templates/Head.tsx')!.text).toBe(readFileSync(join(projectRoot, 'templates/Head.tsx'), 'utf8'))
  })

  test("a template's version covers the template files it imports, directly or not, and no others", async () => {
    const { templateFiles } = await readProject(folder({}), projectRoot)
    expect(templateFiles.map((f) => f.path)).toContain('templates/index.ts')
    const edited = (path: string) => templateFiles.map((f) => (f.path === path ? { ...f, text: `${f.text}\n// edited\n` } : f))
    const before = templateVersions(templateFiles)
    const changed = (path: string) => {
      const after = templateVersions(edited(path))
      return ['home', 'services', 'service', 'doctor', 'contact', 'thank-you', 'blog-index', 'article', 'page', 'not-found'].filter((t) => after(t) !== before(t))
    }
    // The sidebar is imported by the service and article pages, the form by the contact page.
    expect(changed('templates/parts/Sidebar.tsx')).toEqual(['service', 'article'])
    expect(changed('templates/parts/ContactForm.tsx')).toEqual(['contact'])
    expect(changed('templates/Layout.tsx')).toHaveLength(10)
    expect(changed('templates/index.ts')).toHaveLength(10)
  })

  test('a site folder without site.yaml, locales or static files reads as empty, not as an error', async () => {
    const project = await readProject(folder({ 'content/en/index.md': '---\ntitle: Home\n---\n' }), projectRoot)
    expect(project).toMatchObject({ siteFile: { path: 'content/site.yaml', text: '' }, localeFiles: [], staticFiles: [] })
    expect(project.content.map((f) => f.path)).toEqual(['content/en/index.md'])
  })
})

describe('write', () => {
  /** The files of `dir` as the build hands static files to the write stage; `version` stands for each one's size and time. */
  const statics = async (dir: string, version = 'v1') => {
    const paths = await listFiles(dir)
    return staticOutputs(dir, paths, Object.fromEntries(paths.map((path) => [path, version])))
  }
  /** `files` written from nothing into a folder of their own. */
  const fresh = async (files: { path: string; contents: string | Uint8Array }[]) => {
    const out = join(mkdtempSync(join(tmpdir(), 'clinic-write-')), 'dist')
    await writeSite(out, files)
    return out
  }

  test('writes every file in its folder, copies static/ as it is and replaces the previous output', async () => {
    const base = mkdtempSync(join(tmpdir(), 'clinic-write-'))
    const out = join(base, 'dist')
    const staticDir = folder({ 'favicon.svg': '<svg/>', 'images/a.png': Uint8Array.from([0, 255, 1]) })
    await writeSite(out, [{ path: 'old/index.html', contents: 'old' }])
    expect(readFileSync(join(out, 'old/index.html'), 'utf8')).toBe('old')
    const bytes = Uint8Array.from([1, 2, 3, 254])
    await writeSite(out, [
      ...await statics(staticDir),
      { path: 'index.html', contents: '<p>home</p>' },
      { path: 'cn/contact/index.html', contents: '<p>联系</p>' },
      { path: 'og/logo.png', contents: bytes },
    ])
    expect(snapshotNames(out)).toEqual(['cn/contact/index.html', 'favicon.svg', 'images/a.png', 'index.html', 'og/logo.png'])
    expect(readFileSync(join(out, 'cn/contact/index.html'), 'utf8')).toBe('<p>联系</p>')
    expect([...readFileSync(join(out, 'og/logo.png'))]).toEqual([...bytes])
    expect([...readFileSync(join(out, 'images/a.png'))]).toEqual([0, 255, 1])
    // Nothing is left beside the output folder once the replaced one is removed.
    await removalsFinished()
    expect(readdirSync(base)).toEqual(['dist'])
  })

  test('a file with a source on disk is copied from it without reading its contents; with the source gone, its contents are written', async () => {
    const kept = folder({ 'editor.js': 'the kept bundle' })
    let read = 0
    const file = (source: string) => ({ path: 'admin/editor.js', source, version: 'v1', get contents() { read++; return 'read from memory' } })
    const out = join(mkdtempSync(join(tmpdir(), 'clinic-write-')), 'dist')
    await writeSite(out, [file(join(kept, 'editor.js'))])
    expect(readFileSync(join(out, 'admin/editor.js'), 'utf8')).toBe('the kept bundle')
    expect(read).toBe(0)
    await writeSite(out, [file(join(kept, 'removed.js'))])
    expect(readFileSync(join(out, 'admin/editor.js'), 'utf8')).toBe('read from memory')
    expect(read).toBe(1)
  })

  test('a rebuild links the files it wrote before, rewrites what changed or was touched, and drops strays', async () => {
    const base = mkdtempSync(join(tmpdir(), 'clinic-write-'))
    const out = join(base, 'dist')
    const pages = [{ path: 'index.html', contents: 'home' }, { path: 'blog/index.html', contents: 'blog' }, { path: 'contact/index.html', contents: 'contact' }]
    const first = await writeSite(out, pages)
    const inode = (path: string) => statSync(join(out, path)).ino
    const inodes = Object.fromEntries(pages.map((p) => [p.path, inode(p.path)]))
    // Nothing changed: nothing is written, not even a fresh folder.
    const folder = statSync(out).ino
    expect(await writeSite(out, pages, first)).toBe(first)
    expect(statSync(out).ino).toBe(folder)
    // One page changed, one edited by hand in the output, one stray file added there.
    writeFileSync(join(out, 'contact/index.html'), 'edited by hand')
    writeFileSync(join(out, 'stray.html'), 'not ours')
    const changed = pages.map((p) => (p.path === 'blog/index.html' ? { ...p, contents: 'blog, updated' } : p))
    await writeSite(out, changed, first)
    expect(snapshotNames(out)).toEqual(['blog/index.html', 'contact/index.html', 'index.html'])
    expect(changed.map((p) => readFileSync(join(out, p.path), 'utf8'))).toEqual(['home', 'blog, updated', 'contact'])
    expect(inode('index.html')).toBe(inodes['index.html']) // linked, not written again
    expect(inode('blog/index.html')).not.toBe(inodes['blog/index.html'])
    await removalsFinished()
    expect(readdirSync(base)).toEqual(['dist'])
  })

  test('a static file is copied from static/, linked while its version holds, and copied again when it changed there or was touched in the output', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'clinic-write-')), 'dist')
    const dir = folder({ 'favicon.svg': '<svg/>', 'robots.txt': 'ours' })
    const page = { path: 'index.html', contents: 'home' }
    const first = await writeSite(out, [...await statics(dir, 'one'), page])
    const inode = statSync(join(out, 'favicon.svg')).ino
    expect(statSync(join(dir, 'favicon.svg')).ino).not.toBe(inode) // a copy: the output never shares a file with static/
    // Edited by hand in the output: no longer what was written, so the folder is written again.
    writeFileSync(join(out, 'robots.txt'), 'edited by hand')
    const second = await writeSite(out, [...await statics(dir, 'one'), page], first)
    expect(second).not.toBe(first)
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe('ours')
    expect(statSync(join(out, 'favicon.svg')).ino).toBe(inode)
    await removalsFinished() // of the folder replaced, as a build waits for it before it ends
    // Changed in static/: its new version is copied.
    writeFileSync(join(dir, 'favicon.svg'), '<svg id="new"/>')
    await writeSite(out, [...await statics(dir, 'two'), page], second)
    expect(readFileSync(join(out, 'favicon.svg'), 'utf8')).toBe('<svg id="new"/>')
  })

  test('a rebuild starts from the folder the last swap replaced, and ends as a write from nothing would', async () => {
    const base = mkdtempSync(join(tmpdir(), 'clinic-write-'))
    const out = join(base, 'dist')
    const spare = join(base, '.clinic/spare')
    // Every path and folder, with each file's contents: what a visitor can be served.
    const tree = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true })
      .map((e) => { const path = join(e.parentPath, e.name); return `${path.slice(dir.length + 1)}${e.isFile() ? ` = ${readFileSync(path, 'utf8')}` : '/'}` }).sort()
    const first = [{ path: 'index.html', contents: 'home' }, { path: 'x/index.html', contents: 'x' }, { path: 'gone/deep/index.html', contents: 'gone' }, { path: 'blog/a/index.html', contents: 'a' }]
    const second = first.map((f) => (f.path === 'blog/a/index.html' ? { ...f, contents: 'a, edited' } : f))
    // Folders become files and files go, pages are added, a static file changes.
    const third = [{ path: 'index.html', contents: 'home, edited' }, { path: 'x', contents: 'x is a file now' }, { path: 'blog/a/index.html', contents: 'a' }, { path: 'blog/b/index.html', contents: 'b' }]
    const staticOne = await statics(folder({ 'favicon.svg': '<svg/>', 'images/a.png': 'png one' }), 'one')
    const staticTwo = await statics(folder({ 'favicon.svg': '<svg/>', 'images/a.png': 'png two' }), 'two')

    const w1 = await writeSite(out, [...staticOne, ...first], undefined, spareFolder(spare, undefined))
    expect(existsSync(spare)).toBe(false)
    const w2 = await writeSite(out, [...staticOne, ...second], w1, spareFolder(spare, w1))
    // The replaced output is the spare, as the first build wrote it.
    expect(tree(spare)).toEqual(tree(await fresh([...staticOne, ...first])))
    // Left in the spare by hand: a file, a link to a folder, and a page changed in place.
    writeFileSync(join(spare, 'gone/stray.html'), 'left in the spare')
    symlinkSync(folder({ 'elsewhere.txt': 'not the site' }), join(spare, 'blog/link-to-a-folder'))
    writeFileSync(join(spare, 'blog/a/index.html'), 'a, changed by hand')
    // A mode no fresh folder gets: it shows the output was made from the spare, not from nothing
    // (an inode number can be handed out again at once).
    chmodSync(join(spare, 'blog'), 0o750)
    await writeSite(out, [...staticTwo, ...third], w2, spareFolder(spare, w2))
    expect(statSync(join(out, 'blog')).mode & 0o777).toBe(0o750)
    expect(tree(out)).toEqual(tree(await fresh([...staticTwo, ...third])))
    expect(tree(spare)).toEqual(tree(await fresh([...staticOne, ...second])))
    expect(readdirSync(base).sort()).toEqual(['.clinic', 'dist'])
  })

  test('the survey of a spare folder names each file with its size and time, and anything else with neither; a link in its place is no spare', async () => {
    const base = mkdtempSync(join(tmpdir(), 'clinic-survey-'))
    const spare = folder({ 'index.html': 'home', 'blog/a/index.html': 'a' })
    symlinkSync(base, join(spare, 'blog/to-a-folder'))
    symlinkSync(join(base, 'missing'), join(spare, 'to-nothing'))
    const found = await survey(spare)
    const { size, mtimeMs } = statSync(join(spare, 'blog/a/index.html'))
    expect(found && Object.fromEntries(found)).toEqual({
      'index.html': expect.objectContaining({ size: 4 }), 'blog/a/index.html': { size, mtimeMs },
      'blog/to-a-folder': undefined, 'to-nothing': undefined,
    })
    symlinkSync(spare, join(base, 'linked-spare'))
    expect(await survey(join(base, 'linked-spare'))).toBeUndefined()
    expect(await survey(join(base, 'missing'))).toBeUndefined()
  })

  test('a failed write leaves the previous output exactly as it was and nothing beside it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'clinic-write-'))
    const out = join(base, 'dist')
    await writeSite(out, [{ path: 'index.html', contents: 'previous' }, { path: 'blog/index.html', contents: 'blog' }])
    const before = snapshot(out)
    // "page" is both a file and a folder: the second write cannot succeed.
    await expect(writeSite(out, [{ path: 'index.html', contents: 'next' }, { path: 'page', contents: 'x' }, { path: 'page/index.html', contents: 'y' }])).rejects.toThrow()
    expect(snapshot(out)).toEqual(before)
    expect(readdirSync(base)).toEqual(['dist'])
    // A static file that cannot be read fails the same way.
    await expect(writeSite(out, [{ path: 'index.html', contents: 'next' }, ...staticOutputs(join(base, 'missing-static'), ['favicon.svg'], { 'favicon.svg': 'v1' })])).rejects.toThrow()
    expect(snapshot(out)).toEqual(before)
    expect(readdirSync(base)).toEqual(['dist'])
  })
})


describe('summary', () => {
  const route = (url: string, locale: string, template: Route['template'], output: string): Route =>
    ({ url, locale, path: url.replace(/^\/cn\//, '/'), template, alternates: { [locale]: url }, status: template === 'not-found' ? 404 : 200, output })
  const routes = [
    route('/', 'en', 'home', 'index.html'),
    route('/cn/', 'cn', 'home', 'cn/index.html'),
    route('/services/ear/', 'en', 'service', 'services/ear/index.html'),
    route('/services/nose/', 'en', 'service', 'services/nose/index.html'),
    route('/cn/services/ear/', 'cn', 'service', 'cn/services/ear/index.html'),
    route('/blog/a/', 'en', 'article', 'blog/a/index.html'),
    route('/404.html', 'en', 'not-found', '404.html'),
    route('/cn/404.html', 'cn', 'not-found', 'cn/404.html'),
  ]
  const table: RouteTable = { routes, byUrl: new Map(routes.map((r) => [r.url, r])) }
  const page = (n: number, islands = '') => `<main>${islands}${'x'.repeat(n)}</main>`
  const contents: Record<string, string> = {
    'index.html': page(100), 'cn/index.html': page(100),
    'services/ear/index.html': page(300, '<div data-island="tabs"></div>'), 'services/nose/index.html': page(500),
    'cn/services/ear/index.html': page(400, '<div data-island="tabs"></div><div data-island="accordion"></div>'),
    'blog/a/index.html': page(50), '404.html': page(10), 'cn/404.html': page(10),
    'assets/main.A.js': 'export const runtime = 1;'.repeat(40),
    'assets/chunks/tabs.B.js': 'export const tabs = 2;'.repeat(30),
    'assets/chunks/accordion.C.js': 'export const accordion = 3;'.repeat(20),
    'assets/site.D.css': 'body{margin:0}'.repeat(50),
  }
  const files = Object.entries(contents).map(([path, text]) => ({ path, contents: text }))
  const assets = { stylesheet: '/assets/site.D.css', scripts: ['/assets/main.A.js'], runtime: ['/assets/main.A.js'], islands: { tabs: ['/assets/chunks/tabs.B.js'], accordion: ['/assets/chunks/accordion.C.js'] } }
  const size = (...paths: string[]) => ({
    raw: paths.reduce((n, p) => n + Buffer.byteLength(contents[p]!), 0),
    gzip: paths.reduce((n, p) => n + gzipSync(contents[p]!).length, 0),
  })
  const warning = { code: 'UnsafeMarkup', severity: 'warning' as const, message: 'm' }
  const summary = summarise(table, files, [warning, warning, { ...warning, severity: 'error' }], assets)

  test('counts pages per section and locale, and warnings', () => {
    expect(summary.pages).toEqual({ home: { en: 1, cn: 1 }, service: { en: 2, cn: 1 }, article: { en: 1 }, 'not-found': { en: 1, cn: 1 } })
    expect(summary.warnings).toBe(2)
  })

  test('sizes a page of each type: the average HTML, the stylesheet, the runtime plus the islands of the heaviest page', () => {
    const services = ['services/ear/index.html', 'services/nose/index.html', 'cn/services/ear/index.html']
    const html = size(...services)
    expect(summary.bytesPerPage.service!.html).toEqual({ raw: Math.round(html.raw / 3), gzip: Math.round(html.gzip / 3) })
    expect(summary.bytesPerPage.service!.css).toEqual(size('assets/site.D.css'))
    expect(summary.bytesPerPage.service!.js).toEqual(size('assets/main.A.js', 'assets/chunks/tabs.B.js', 'assets/chunks/accordion.C.js'))
    expect(summary.bytesPerPage.home!.js).toEqual(size('assets/main.A.js'))
    expect(summary.runtime).toEqual(size('assets/main.A.js'))
    expect(summary.overBudget).toEqual([])
  })

  test('prints the pages table and the budget figures', () => {
    const text = formatSummary(summary, { read: 12.4, render: 30.6, total: 1234 })
    const lines = text.split('\n')
    expect(lines.slice(0, 5)).toEqual([
      'pages            en    cn',
      '  article         1     0',
      '  home            1     1',
      '  not-found       1     1',
      '  service         2     1',
    ])
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
    const runtime = size('assets/main.A.js')
    expect(text).toContain(`  shared runtime js: ${kb(runtime.raw)} / ${kb(runtime.gzip)} (budget 8.0 KB)`)
    expect(text).toMatch(/css \(budget 20\.0 KB\)\s+js \(budget 25\.0 KB\)/)
    expect(text).toContain('every page fits its budgets')
    expect(lines.slice(-2)).toEqual(['warnings: 2', 'built in 1.23 s (read 12 ms, render 31 ms)'])
  })
})
