/**
 * The build cache on disk (.clinic/cache): build.bin, and the pages' HTML in segment files beside
 * it (src/build/page-store.ts). Each build below starts from what the one before it stored, and
 * its output must be what a build from nothing writes.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deserialize } from 'node:v8'
import { expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { loadCache } from '../../src/build/cache.ts'
import { addArticles, copySite, digestOf, edit, filesIn } from '../support/helpers.ts'

const cacheDir = (site: string) => join(site, '.clinic/cache')
const segments = (site: string) => readdirSync(cacheDir(site)).filter((name) => /^html-[0-9a-f]+\.bin$/.test(name)).sort()
const bytesOf = (site: string, names: string[]) => Object.fromEntries(names.map((name) => [name, readFileSync(join(cacheDir(site), name)).toString('base64')]))

/** Every file of an output folder, with a digest of its contents, by path. */
const output = (dir: string) => filesIn(dir, digestOf)

/**
 * A build that runs every stage: without the last build's written site, a body edit is not patched
 * into the output folder (src/build/written-site.ts), which leaves the build cache as it was.
 */
async function built(site: string, out = 'dist'): Promise<BuildResult> {
  rmSync(join(cacheDir(site), 'written-site.bin'), { force: true })
  const result = await build({ root: site, out: join(site, out) })
  expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true)
  return result
}

/** `out` holds what a build from nothing (no cache read or stored) writes for the site as it now is. */
async function expectSameAsCold(site: string, out = 'dist'): Promise<void> {
  // On this thread: render threads, which a site of 300 pages or more starts, load the sources through tsx.
  const fresh = await build({ root: site, out: join(site, 'fresh'), cache: false, threads: 0 })
  expect(fresh.ok).toBe(true)
  expect(output(join(site, out))).toEqual(output(join(site, 'fresh')))
}

test('pages are kept apart from build.bin: an edit adds a segment of its pages and leaves the rest untouched', async () => {
  const site = copySite()
  const cold = await built(site)
  expect(cold.pages!.reused).toBe(0)
  const [first, ...others] = segments(site)
  expect(others).toEqual([])
  const before = bytesOf(site, [first!])
  // The pages are most of the cache: build.bin keeps their places, not their HTML.
  expect(statSync(join(cacheDir(site), first!)).size).toBeGreaterThan(statSync(join(cacheDir(site), 'build.bin')).size)

  appendFileSync(join(site, 'content/en/contact.md'), '\nWe answer enquiries within two working days.\n')
  const edited = await built(site)
  expect(edited.pages!.rendered).toBe(1)
  const now = segments(site)
  expect(now).toHaveLength(2)
  expect(bytesOf(site, [first!])).toEqual(before)
  const added = now.find((name) => name !== first)!
  expect(readFileSync(join(cacheDir(site), added), 'utf8')).toContain('We answer enquiries within two working days.')
  expect(statSync(join(cacheDir(site), added)).size * 20).toBeLessThan(statSync(join(cacheDir(site), first!)).size)

  // Nothing changed: nothing is stored, and the pages' HTML is not even read.
  const stored = statSync(join(cacheDir(site), 'build.bin')).mtimeMs
  const again = await built(site)
  expect(again.pages!.rendered).toBe(0)
  expect(statSync(join(cacheDir(site), 'build.bin')).mtimeMs).toBe(stored)
  expect(segments(site)).toEqual(now)
  await expectSameAsCold(site)
}, 120_000)

test('build.bin keeps each read of the rest of the site once, however many pages made it', async () => {
  const site = copySite()
  await built(site)
  const saved = deserialize(readFileSync(join(cacheDir(site), 'build.bin'))) as { reads: Uint8Array; pages: Map<string, { reads: number[] }> }
  const stored = { ...saved, reads: deserialize(saved.reads) as [string, string][] }
  const pairs = stored.reads.map(([read, answer]) => `${read} = ${answer}`)
  expect(new Set(pairs).size).toBe(pairs.length)
  // Every English page reads the English messages: one entry, named by each of them.
  const messages = stored.reads.findIndex(([read]) => read === 'messages en')
  const naming = [...stored.pages.values()].filter((page) => page.reads.includes(messages))
  expect(naming.length).toBeGreaterThan(10)
  expect(stored.reads.filter(([read]) => read === 'messages en')).toHaveLength(1)
  // Read back, a warm build finds every page's reads answered as before: nothing is rendered.
  appendFileSync(join(site, 'content/en/contact.md'), '\nWe answer enquiries within two working days.\n')
  expect((await built(site)).pages!.rendered).toBe(1)
}, 120_000)

test('a new output folder is written from the stored pages, and a message edit renders them from the stored Docs', async () => {
  const site = copySite()
  await built(site)
  // Every page comes from the segments: none is rendered.
  const elsewhere = await built(site, 'elsewhere')
  expect(elsewhere.pages!.rendered).toBe(0)
  expect(output(join(site, 'elsewhere'))).toEqual(output(join(site, 'dist')))
  // build.bin keeps each Doc without its body; the build takes it back from the unchanged file.
  edit(site, 'locales/en-SG.yaml', (t) => t.replace('skip: Skip to main content', 'skip: Skip to the content'))
  const relabelled = await built(site)
  expect(relabelled.pages!.rendered).toBeGreaterThan(20)
  expect(readFileSync(join(site, 'dist/blog/how-to-prepare-for-a-rhinoplasty/index.html'), 'utf8')).toContain('Skip to the content')
  await expectSameAsCold(site)
}, 120_000)

/** The cache a build would load from the site's .clinic/cache, read with the code that stored build.bin. */
async function loaded(site: string) {
  const { code } = deserialize(readFileSync(join(cacheDir(site), 'build.bin'))) as { code: string }
  return loadCache(site, code)
}
const deltaOf = (site: string) => join(cacheDir(site), 'build-delta.bin')

test('an edit stores what it changed beside build.bin, which stays as it was, until the changes are many', async () => {
  const site = addArticles(copySite(), 150)
  await built(site)
  const whole = readFileSync(join(cacheDir(site), 'build.bin'))
  expect(existsSync(deltaOf(site))).toBe(false)

  appendFileSync(join(site, 'content/en/contact.md'), '\nWe answer enquiries within two working days.\n')
  await built(site)
  expect(readFileSync(join(cacheDir(site), 'build.bin')).equals(whole)).toBe(true)
  // The one page rendered, its body's facts, its Doc; and the record of the output folder, whole.
  const delta = deserialize(readFileSync(deltaOf(site))) as { pages: { set: Map<string, unknown> }; docs: { set: Map<string, unknown> } }
  expect(delta.pages.set.size).toBe(1)
  expect([...delta.docs.set.keys()]).toEqual(['content/en/contact.md'])
  expect(statSync(deltaOf(site)).size * 4).toBeLessThan(whole.length)
  // Read back, build.bin with its delta is this build's cache: a new folder needs no page rendered.
  const elsewhere = await built(site, 'elsewhere')
  expect(elsewhere.pages!.rendered).toBe(0)
  expect(output(join(site, 'elsewhere'))).toEqual(output(join(site, 'dist')))
  await expectSameAsCold(site)

  // A removed article leaves the cache with its delta, and does not come back with build.bin's entry.
  const gone = 'content/en/blog/benefits-of-motiva-breast-implant.md'
  rmSync(join(site, gone))
  edit(site, 'content/en/services/breast-augmentation.md', (t) => t.replace('[Motiva breast implants](/blog/benefits-of-motiva-breast-implant/)', 'Motiva breast implants'))
  await built(site)
  expect(readFileSync(join(cacheDir(site), 'build.bin')).equals(whole)).toBe(true)
  expect((await loaded(site)).docs.has(gone)).toBe(false)
  await expectSameAsCold(site)

  // A message shown on every English page changes more than the delta is worth: build.bin is written whole.
  edit(site, 'locales/en-SG.yaml', (t) => t.replace('skip: Skip to main content', 'skip: Skip to the content'))
  expect((await built(site)).pages!.rendered).toBeGreaterThan(20)
  expect(readFileSync(join(cacheDir(site), 'build.bin')).equals(whole)).toBe(false)
  expect(existsSync(deltaOf(site))).toBe(false)
  expect((await loaded(site)).docs.has(gone)).toBe(false)
  await expectSameAsCold(site)
}, 180_000)

test('a page carried from one delta to the next keeps its reads: a later change renders what a cache with no deltas renders', async () => {
  const [site, plain] = [copySite(), copySite()]
  const edits = [
    ['content/en/blog/how-to-prepare-for-a-rhinoplasty.md', '\nAsk your surgeon which medicines to pause.\n'],
    ['content/en/blog/upper-vs-lower-eyelid-surgery.md', '\nRecovery differs from person to person.\n'],
  ] as const
  // One edit after another: the first one's page goes into the second delta with its reads' places.
  await built(site)
  for (const [path, text] of edits) { appendFileSync(join(site, path), text); await built(site) }
  const delta = deserialize(readFileSync(deltaOf(site))) as { pages: { set: Map<string, unknown> }; reads: unknown[] }
  expect(delta.pages.set.size).toBe(2)
  // The same Markdown, built at once: build.bin alone.
  for (const [path, text] of edits) appendFileSync(join(plain, path), text)
  await built(plain)
  expect(existsSync(deltaOf(plain))).toBe(false)

  // Both articles show their author: renaming her asks every page's reads again.
  for (const dir of [site, plain]) edit(dir, 'content/en/dr-evelyn-quah.md', (t) => t.replace('name: Dr Evelyn Quah Si Min', 'name: Dr Evelyn Quah'))
  const [afterDeltas, afterWhole] = [await built(site), await built(plain)]
  expect(afterDeltas.pages!.rendered).toBe(afterWhole.pages!.rendered)
  expect(afterDeltas.pages!.rendered).toBeGreaterThan(2)
  expect(afterDeltas.pages!.reused).toBeGreaterThan(10)
  expect(readFileSync(join(site, 'dist/blog/how-to-prepare-for-a-rhinoplasty/index.html'), 'utf8')).toContain('Dr Evelyn Quah<')
  await expectSameAsCold(site)
}, 180_000)

test('a delta made against another build.bin is not applied', async () => {
  const site = copySite()
  await built(site)
  appendFileSync(join(site, 'content/en/contact.md'), '\nWe answer enquiries within two working days.\n')
  await built(site)
  const stale = readFileSync(deltaOf(site))
  const edited = (await loaded(site)).docs.get('content/en/contact.md')
  expect(edited).toBeDefined()

  // Built from nothing again: a build.bin of its own, with no delta, and the older delta put back.
  rmSync(join(site, '.clinic'), { recursive: true })
  edit(site, 'content/en/contact.md', (t) => t.replace('\nWe answer enquiries within two working days.\n', ''))
  await built(site)
  writeFileSync(deltaOf(site), stale)
  const cache = await loaded(site)
  const known = cache.docs.get('content/en/contact.md')!
  expect(known.text).not.toBe(edited!.text)
  const { docs } = deserialize(readFileSync(join(cacheDir(site), 'build.bin'))) as { docs: Map<string, { text: string }> }
  expect(known.text).toBe(docs.get('content/en/contact.md')!.text)
  expect((await built(site, 'elsewhere')).pages!.rendered).toBe(0)
  await expectSameAsCold(site, 'elsewhere')

  // One that cannot be read is left out too; build.bin still serves.
  appendFileSync(join(site, 'content/en/contact.md'), '\nWe answer enquiries within two working days.\n')
  await built(site)
  writeFileSync(deltaOf(site), 'not a delta')
  const cut = await built(site, 'after-cut')
  expect(cut.pages!.reused).toBeGreaterThan(40)
  await expectSameAsCold(site, 'after-cut')
}, 120_000)

test('a segment that is missing or cut short costs its pages a new render, never a wrong page', async () => {
  const site = copySite()
  await built(site)
  const [segment] = segments(site)
  const path = join(cacheDir(site), segment!)
  truncateSync(path, Math.floor(statSync(path).size / 2))
  // Into other folders: one the last build left as it was would need no page at all.
  const cut = await built(site, 'after-cut')
  expect(cut.pages!.rendered).toBeGreaterThan(0)
  expect(cut.pages!.reused).toBeGreaterThan(0) // those in the first half
  await expectSameAsCold(site, 'after-cut')

  for (const name of segments(site)) rmSync(join(cacheDir(site), name))
  const missing = await built(site, 'after-removal')
  expect(missing.pages!.reused).toBe(0)
  await expectSameAsCold(site, 'after-removal')
}, 120_000)

test('edits to many files do not pile up segments: past eight, the live pages are written as one', async () => {
  const site = copySite()
  await built(site)
  const articles = readdirSync(join(site, 'content/en/blog')).filter((f) => f !== 'index.md').slice(0, 10)
  const counts: number[] = []
  for (const article of articles) {
    appendFileSync(join(site, 'content/en/blog', article), '\nOne more sentence.\n')
    expect((await built(site)).pages!.rendered).toBe(1)
    counts.push(segments(site).length)
  }
  expect(counts).toEqual([2, 3, 4, 5, 6, 7, 8, 1, 2, 3])
  await expectSameAsCold(site)
}, 180_000)

test('files a stopped build left beside the cache\'s own are removed once they are an hour old; newer ones may be another build\'s', async () => {
  const site = copySite()
  await built(site)
  const beside = (folder: string, name: string, hoursAgo: number) => {
    const path = join(folder, name)
    writeFileSync(path, 'half a file')
    const then = new Date(Date.now() - hoursAgo * 3_600_000)
    utimesSync(path, then, then)
    return path
  }
  const files = join(cacheDir(site), 'files')
  const stale = [beside(cacheDir(site), 'last-build.bin.4321.tmp', 2), beside(files, 'encoded.4321.tmp', 2)]
  const fresh = [beside(cacheDir(site), 'build.bin.4322.tmp', 0), beside(files, 'encoded.4322.tmp', 0)]
  edit(site, 'content/en/contact.md', (t) => t.replace(/^title: .*$/m, 'title: Reach us'))
  await built(site)
  expect(stale.filter((path) => existsSync(path))).toEqual([])
  expect(fresh.filter((path) => existsSync(path))).toEqual(fresh)
})

// Two builds of one site at once each save their pages in a segment of their own: neither may
// remove the other's, or the build.bin saved last points at a segment that is gone.
test('a segment written since a build started is left for the build that wrote it; older unused ones are removed', async () => {
  const site = copySite()
  await built(site)
  const segment = (name: string, secondsFromNow: number) => {
    const path = join(cacheDir(site), name)
    writeFileSync(path, 'pages of another build')
    const then = new Date(Date.now() + secondsFromNow * 1000)
    utimesSync(path, then, then)
    return path
  }
  const another = segment('html-00000000000000aa.bin', 600)
  const leftover = segment('html-00000000000000bb.bin', -60)
  edit(site, 'content/en/contact.md', (t) => t.replace(/^title: .*$/m, 'title: Reach us'))
  await built(site)
  expect([existsSync(another), existsSync(leftover)]).toEqual([true, false])
})

test('a build whose inputs and output folder are as the last build left them does nothing, and says so', async () => {
  const site = copySite()
  const first = await built(site)
  expect(first.upToDate).toBeUndefined()
  const out = join(site, 'dist')
  // Nothing is read but the sources and the record: not even a build cache that cannot be read.
  writeFileSync(join(cacheDir(site), 'build.bin'), 'not a cache')
  const before = output(out)
  const again = await built(site)
  expect(again.upToDate).toBe(true)
  expect(again.summary).toEqual(first.summary)
  expect(again.diagnostics).toEqual(first.diagnostics)
  expect(again.pages).toEqual({ reused: first.pages!.reused + first.pages!.rendered, rendered: 0 })
  expect(readFileSync(join(cacheDir(site), 'build.bin'), 'utf8')).toBe('not a cache')
  expect(output(out)).toEqual(before)
  // A build asked for its files rather than the folder has them to give.
  const inMemory = await build({ root: site, out, write: false, cache: true })
  expect(inMemory.upToDate).toBeUndefined()
  expect(inMemory.files.length).toBeGreaterThan(50)

  // Whatever differs makes it a build again: a source, an option, the output folder's files.
  const differences: [string, () => void | Promise<BuildResult>][] = [
    ['a message', () => edit(site, 'locales/zh-CN.yaml', (t) => t.replace('menu: 菜单', 'menu: 目录'))],
    ['a build with drafts shown in between', () => build({ root: site, out, drafts: true })],
    ['a page edited by hand', () => appendFileSync(join(out, 'contact/index.html'), '<!-- edited -->')],
    ['a page removed by hand', () => rmSync(join(out, 'services/ear/index.html'))],
    ['a static file edited by hand', () => appendFileSync(join(out, 'favicon.svg'), '<!-- edited -->')],
    ['a file added by hand', () => writeFileSync(join(out, 'stray.txt'), 'stray')],
  ]
  for (const [what, change] of differences) {
    await change()
    const result = await built(site)
    expect(result.upToDate, what).toBeUndefined()
    await expectSameAsCold(site)
    expect((await built(site)).upToDate, `${what}, built again`).toBe(true)
  }
}, 180_000)

test('a body\'s links and images come back from build.bin as found: a later build reports the same problems, at the same places', async () => {
  const site = copySite()
  edit(site, 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md', (t) => `${t}\nA [contact](/contact/) link,\nand ![a chart](https://example.com/chart.png) from another site.\n`)
  const first = await built(site)
  const unsized = first.diagnostics.filter((d) => d.code === 'UnsizedImage')
  expect(unsized).toEqual([expect.objectContaining({ file: 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md', line: expect.any(Number), column: 5 })])
  // The next build checks every body's links again, from the facts build.bin kept.
  const again = await built(site, 'elsewhere')
  expect(again.pages!.rendered).toBe(0)
  expect(again.diagnostics).toEqual(first.diagnostics)
  const fresh = await build({ root: site, out: join(site, 'fresh'), cache: false })
  expect(again.diagnostics).toEqual(fresh.diagnostics)
  await expectSameAsCold(site, 'elsewhere')
}, 120_000)
