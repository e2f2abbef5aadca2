/**
 * Decap keeps a page beside its translations (<collection>/<locale>/<file>); the site keeps each
 * language in a folder of its own (content/<locale>/<section>/<file>). The editor's backends turn
 * every path from one into the other.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { adminConfig } from '../../src/admin/config.ts'
import { parseSite } from '../../src/content/site.ts'
import { withLayout } from '../../src/editor/backends.ts'
import { layoutOf } from '../../src/editor/layout.ts'
import { projectRoot } from '../support/helpers.ts'

const { site } = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') })
const layout = layoutOf(adminConfig(site!)!.layout)

describe('paths between Decap and content/', () => {
  test('sections, doctors and plain pages', () => {
    const pairs = [
      ['content/services/cn/ear.md', 'content/cn/services/ear.md'],
      ['content/articles/en/a-new-article.md', 'content/en/blog/a-new-article.md'],
      ['content/doctors/en/dr-evelyn-quah.md', 'content/en/dr-evelyn-quah.md'],
      ['content/pages/cn/privacy.md', 'content/cn/privacy.md'],
      ['content/home-page/cn/page.md', 'content/cn/index.md'],
      ['content/services-page/en/page.md', 'content/en/services/index.md'],
      ['content/contact-page/cn/page.md', 'content/cn/contact.md'],
      ['content/blog-page/en/page.md', 'content/en/blog/index.md'],
    ]
    for (const [editor, content] of pairs) {
      expect(layout.toSite(editor!)).toBe(content)
      expect(layout.toEditor(content!)).toBe(editor)
    }
  })

  test('files of no collection are left alone or left out', () => {
    expect(layout.toSite('static/images/lobby.jpg')).toBe('static/images/lobby.jpg')
    expect(layout.toSite('content/articles/cn/x.md')).toBe('content/articles/cn/x.md') // articles are English only
    expect(layout.toSite('content/blog-page/cn/page.md')).toBe('content/blog-page/cn/page.md') // the blog is English only
    expect(layout.toEditor('content/cn/blog/index.md')).toBeUndefined()
    expect(layout.toEditor('content/en/privacy.md', '---\ntitle: Privacy\n---\n')).toBe('content/pages/en/privacy.md')
  })
})

describe('a backend with the site\'s layout', () => {
  const files: Record<string, string> = {
    'content/en/services/ear.md': 'ear', 'content/cn/services/ear.md': '耳', 'content/en/services/index.md': 'index',
    'content/en/contact.md': '---\ntemplate: contact\n---\n', 'content/en/privacy.md': '---\ntitle: P\n---\n', 'content/en/dr-evelyn-quah.md': 'doctor',
  }
  const saved: string[] = []
  const inFolder = (folder: string) => Object.keys(files).filter((p) => p.startsWith(`${folder}/`) && !p.slice(folder.length + 1).includes('/'))
  const backend = withLayout({
    entriesByFolder: async (folder: string, _extension: string, _depth: number) => inFolder(folder).map((path) => ({ data: files[path]!, file: { path } })),
    getEntry: async (path: string) => ({ data: files[path] ?? null, file: { path } }),
    persistEntry: async (entry: { dataFiles: { path: string }[] }) => { saved.push(...entry.dataFiles.map((f) => f.path)) },
    status: () => 'ok',
  }, layout)

  test('lists a collection from each language\'s folder, its index and other kinds left out', async () => {
    expect((await backend.entriesByFolder('content/services', 'md', 2)).map((e) => e.file.path)).toEqual(['content/services/en/ear.md', 'content/services/cn/ear.md'])
    expect((await backend.entriesByFolder('content/pages', 'md', 2)).map((e) => e.file.path)).toEqual(['content/pages/en/privacy.md'])
    expect((await backend.entriesByFolder('content/doctors', 'md', 2)).map((e) => e.file.path)).toEqual(['content/doctors/en/dr-evelyn-quah.md'])
  })

  test('lists a single page\'s collection as its file in each language that has it', async () => {
    expect((await backend.entriesByFolder('content/contact-page', 'md', 2)).map((e) => e.file.path)).toEqual(['content/contact-page/en/page.md'])
  })

  test('reads and saves the site\'s files, and passes other calls through', async () => {
    expect(await backend.getEntry('content/services/cn/ear.md')).toEqual({ data: '耳', file: { path: 'content/services/cn/ear.md' } })
    await backend.persistEntry({ dataFiles: [{ path: 'content/articles/en/new.md' }] })
    expect(saved).toEqual(['content/en/blog/new.md'])
    expect(backend.status()).toBe('ok')
  })
})

describe('a save through the backend', () => {
  const files: Record<string, string> = {
    'content/en/services/ear.md': '---\ntitle: Ear Surgery\nsummary: "Reshaping ears."\n---\n\nText.\n',
    'content/cn/services/ear.md': '---\ntitle: 耳部整形手术\nsummary: 矫正招风耳。\n---\n\n正文。\n',
  }
  const written: Record<string, string> = {}
  const backend = withLayout({
    entriesByFolder: async (folder: string, _extension: string, _depth: number) => Object.keys(files).filter((p) => p.startsWith(`${folder}/`)).map((path) => ({ data: files[path]!, file: { path } })),
    persistEntry: async (entry: { dataFiles: { path: string; raw: string }[] }) => { for (const f of entry.dataFiles) written[f.path] = f.raw },
  }, layout, () => ['title', 'summary', 'body'])

  test('writes the changed field\'s line alone, and not the translation left as it was', async () => {
    await backend.entriesByFolder('content/services', 'md', 2)
    await backend.persistEntry({ dataFiles: [
      { path: 'content/services/en/ear.md', raw: '---\nsummary: Reshaping prominent ears.\ntitle: Ear Surgery\n---\nText.\n' },
      { path: 'content/services/cn/ear.md', raw: '---\nsummary: 矫正招风耳。\ntitle: 耳部整形手术\n---\n正文。\n' },
    ] })
    expect(written).toEqual({ 'content/en/services/ear.md': '---\ntitle: Ear Surgery\nsummary: "Reshaping prominent ears."\n---\n\nText.\n' })
  })
})
