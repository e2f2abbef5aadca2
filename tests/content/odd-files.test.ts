// Files an editor can leave under content/ by accident: each builds, or is a catalogued error that
// names the file, with exit 1 and the previous site left as it was; never a crash.
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { BIN, copySite, digestOf, filesIn, runCli } from '../support/helpers.ts'
import { execFile } from 'node:child_process'

let site: string
let out: string
let previous: Map<string, string>

/** Each file of a built site and a digest of its bytes. */
const snapshot = (dir: string) => filesIn(dir, digestOf)

beforeAll(async () => {
  site = copySite()
  out = join(site, 'dist')
  const { status, stderr } = await runCli(['--root', site, '--out', out])
  expect(status, stderr).toBe(0)
  previous = snapshot(out)
})

type Entry = string | { link: string } | { folder: true }

/** Builds the site with `entries` added under content/, then takes them away again. */
async function buildWith(entries: Record<string, Entry>) {
  const paths = Object.keys(entries).map((p) => join(site, 'content', p))
  for (const [path, entry] of Object.entries(entries)) {
    const full = join(site, 'content', path)
    mkdirSync(dirname(full), { recursive: true })
    if (typeof entry === 'string') writeFileSync(full, entry)
    else if ('link' in entry) symlinkSync(entry.link, full)
    else mkdirSync(full)
  }
  try {
    const result = await runCli(['--root', site, '--out', out])
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /i)
    expect(result.status).not.toBe(70)
    if (result.status === 1) expect(snapshot(out)).toEqual(previous)
    else previous = snapshot(out)
    return { ...result, html: (page: string) => readFileSync(join(out, page, 'index.html'), 'utf8') }
  } finally {
    for (const path of paths) rmSync(path, { recursive: true, force: true })
  }
}

const article = (title: string) => `---\ntitle: ${title}\ndescription: An article about an odd file.\ndate: 2026-01-05\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-01-05\ntags: [recovery]\n---\n\nSome text.\n`

describe('empty and partial files', () => {
  test('an empty page is EmptyPage, naming the file', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/new-article.md': '' })
    expect(status).toBe(1)
    expect(stderr).toContain('content/en/blog/new-article.md  EmptyPage  The page is empty.')
  })

  test('a page of blank lines only is EmptyPage too', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/new-article.md': '\r\n  \n\t\n' })
    expect(status).toBe(1)
    expect(stderr).toContain('content/en/blog/new-article.md  EmptyPage')
  })

  test('a body without front matter is MissingFrontMatter at line 1', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/new-article.md': 'Just some text.\n' })
    expect(status).toBe(1)
    expect(stderr).toContain('content/en/blog/new-article.md:1:1  MissingFrontMatter')
  })

  test('front matter without a body builds a page', async () => {
    const { status, stderr, html } = await buildWith({ 'en/blog/front-matter-only.md': article('Front matter alone').replace('\nSome text.\n', '') })
    expect(status, stderr).toBe(0)
    expect(html('blog/front-matter-only')).toContain('<h1>Front matter alone</h1>')
  })

  test('front matter that is not finished is a catalogued error', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/new-article.md': '---\ntitle: Half\n' })
    expect(status).toBe(1)
    expect(stderr).toMatch(/content\/en\/blog\/new-article\.md(:\d+:\d+)?  (InvalidFrontMatter|MissingFrontMatter)/)
  })
})

describe('folders, links and names', () => {
  test('a folder named like a page is not a page, and the site builds', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/folder.md': { folder: true } })
    expect(status, stderr).toBe(0)
  })

  test('a link to a page file builds that page', async () => {
    writeFileSync(join(site, 'article.txt'), article('Linked in'))
    try {
      const { status, stderr, html } = await buildWith({ 'en/blog/linked-article.md': { link: '../../../article.txt' } })
      expect(status, stderr).toBe(0)
      expect(html('blog/linked-article')).toContain('<h1>Linked in</h1>')
    } finally { rmSync(join(site, 'article.txt')) }
  })

  test('a link to nothing is Unreadable, naming the link and where it leads', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/gone.md': { link: 'deleted-article.md' } })
    expect(status).toBe(1)
    expect(stderr).toContain('content/en/blog/gone.md  Unreadable  The file could not be read: it is a link to deleted-article.md, which does not exist.')
  })

  test('a circle of links is Unreadable, naming each link', async () => {
    const { status, stderr } = await buildWith({ 'en/blog/one.md': { link: 'two.md' }, 'en/blog/two.md': { link: 'one.md' } })
    expect(status).toBe(1)
    expect(stderr).toContain('content/en/blog/one.md  Unreadable  The file could not be read: it is a link (to two.md) in a circle of links.')
    expect(stderr).toContain('content/en/blog/two.md  Unreadable')
  })

  test('a link to a folder, even one that leads in a circle, is a LinkedFolder warning and the site builds', async () => {
    const { status, stderr } = await buildWith({ 'en/again': { link: '.' } })
    expect(status, stderr).toBe(0)
    expect(stderr).toContain('content/en/again  warning LinkedFolder')
  })

  test.each([
    ['spaces', 'en/blog/My first article.md', 'My first article', '/blog/My first article/'],
    ['capitals', 'en/blog/Rhinoplasty-Recovery.md', 'Rhinoplasty-Recovery', '/blog/Rhinoplasty-Recovery/'],
    ['non-ASCII letters', 'en/blog/隆鼻.md', '隆鼻', '/blog/隆鼻/'],
    ['a folder with a space', 'en/blog/2026 notes/recovery.md', '2026 notes', '/blog/2026 notes/recovery/'],
  ])('a name with %s is InvalidPageName, naming the file and the URL it would make', async (_, file, name, url) => {
    const { status, stderr } = await buildWith({ [file]: article('Named oddly') })
    expect(status).toBe(1)
    expect(stderr).toContain(`content/${file}  InvalidPageName  "${name}" would become part of the page's URL (${url})`)
  })

  test('an odd file name with a slug in its front matter builds at the slug', async () => {
    const { status, stderr, html } = await buildWith({ 'en/blog/My Draft (2).md': article('Slugged').replace('---\n\nSome', 'slug: slugged-article\n---\n\nSome') })
    expect(status, stderr).toBe(0)
    expect(html('blog/slugged-article')).toContain('<h1>Slugged</h1>')
  })
})

// Root reads every file whatever its mode, so as root the build runs as the user nobody.
test('a file the build may not read is Unreadable, naming it, and the previous site stays', async () => {
  const asRoot = process.getuid?.() === 0
  if (asRoot && !existsSync('/usr/bin/setpriv')) throw new Error('this test needs setpriv (util-linux) to run the build as another user')
  await runCli(['--version']) // the bundle of the sources, made before a user who may not write it runs the command
  const locked = join(site, 'content/en/blog/locked.md')
  writeFileSync(locked, article('Locked'))
  chmodSync(locked, 0o000)
  for (const entry of readdirSync(site, { recursive: true, withFileTypes: true })) if (entry.isDirectory()) chmodSync(join(entry.parentPath, entry.name), 0o777)
  chmodSync(site, 0o777)
  for (const file of readdirSync(out, { recursive: true, withFileTypes: true })) if (file.isFile()) chmodSync(join(file.parentPath, file.name), 0o666)
  const command = asRoot ? ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN] : [process.execPath, BIN]
  try {
    const result = await new Promise<{ status: number; stderr: string }>((done) => execFile(command[0]!, [...command.slice(1), '--root', site, '--out', out], { encoding: 'utf8' },
      (error, _stdout, stderr) => done({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr })))
    expect(result.stderr).toContain('content/en/blog/locked.md  Unreadable  The file could not be read: permission denied.')
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /i)
    expect(result.status).toBe(1)
    expect(snapshot(out)).toEqual(previous)
  } finally {
    rmSync(locked, { force: true })
  }
})
