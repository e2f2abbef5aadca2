/**
 * The build cache, under the site's .clinic/cache/: what the costly stages derived from each input,
 * keyed by content hash. A body's facts are kept by the hash of its file; a page's minified HTML
 * by its Doc's hash, its route and a hash of everything pages share, with the answers to what it
 * read of other pages (src/page/reads.ts). Unchanged pages are therefore neither parsed nor rendered
 * again; the whole cache is dropped when the generator's code changes. On disk: build.bin, the
 * changes a later build made to it (build-delta.bin), and the pages' HTML (page-store.ts).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { hashOf, sameInputs, type FromContents } from '../util/memo.ts'
import { removeAbandoned, writeWhole } from '../util/write-whole.ts'
import { bodyAfter, type ParsedDoc } from '../content/parse.ts'
import type { Read } from '../page/reads.ts'
import { contentHash, type Written } from './write.ts'
import { openSegments, readPage, removeSegmentsBut, storePages, type Location, type SegmentWriter, type Stored, type ToStore } from './page-store.ts'
import type { BodyFacts, SourceFile } from '../types.ts'

/** Bump when the cached shape changes. */
const FORMAT = 10

export interface BuildCache {
  /** Facts of a body, by `${doc.id} ${doc.hash}`. */
  facts: Map<string, BodyFacts>
  /** Minified HTML of a page and its hash by page key (see build.ts), with what it read of the rest of the site and the answers then. */
  pages: Map<string, CachedPage>
  /** A content file's parse result, by its path. */
  docs: Map<string, KnownDoc>
  /**
   * What later stages read from an output file's contents (the summary's sizes, the policy's
   * inline scripts), by `${what} ${file.version}`: a build that re-uses a page never decodes it.
   */
  derived: Map<string, unknown>
  /**
   * In memory only, for the builds of one dev server: the last result of a step by name, with
   * the inputs it came from. Unchanged inputs are the very same strings and objects from one
   * build to the next, so telling them apart costs a pointer comparison.
   */
  steps: Map<string, { inputs: unknown[]; value: unknown }>
  /** The files the last build wrote (src/build/write.ts), so unchanged ones are linked, not written. */
  output?: Written
  /**
   * A fingerprint of everything pages can read of each other (src/page/reads.ts) in the build that
   * left this cache. Every page in it was rendered or checked against those answers, so while the
   * fingerprint is the same, no page's reads need asking again.
   */
  answers?: string
}

/**
 * A content file's parse result, with hashes of its text and of the site configuration it was
 * parsed with, and, when it has a Doc, its front matter block (content/parse.ts headOf).
 */
export interface KnownDoc { text: string; site: string; result: ParsedDoc; head?: string }

export interface CachedPage { html: string; hash: string; reads: [Read, string][] }

export const emptyCache = (): BuildCache => ({ facts: new Map(), pages: new Map(), docs: new Map(), derived: new Map(), steps: new Map() })

/** The step's last value when called with the same inputs (compared with ===), else computes it. */
export function memo<T>(cache: BuildCache, step: string, inputs: unknown[], run: () => T): T {
  const last = cache.steps.get(step)
  if (last && sameInputs(last.inputs, inputs)) return last.value as T
  const value = run()
  cache.steps.set(step, { inputs, value })
  return value
}

/** The version of the generator itself: its code, styles and package.json (templates are versioned per page, src/render/template-versions.ts). */
export function codeVersion(files: SourceFile[]): string {
  return hashOf(String(FORMAT), ...files.flatMap((f) => [f.path, f.text]))
}

/**
 * A stage's fact about an output file, from `known` when a file of the same version had it
 * (the last build's BuildCache.derived); every fact used is carried into `used` (this build's),
 * so the cache holds this build's alone. A file without a version is read.
 */
export function fromContentsOf(known: ReadonlyMap<string, unknown>, used: Map<string, unknown>): FromContents {
  return <T>(what: string, file: { contents: string | Uint8Array; version?: string }, derive: (contents: string | Uint8Array) => T): T => {
    if (file.version === undefined) return derive(file.contents)
    const key = `${what} ${file.version}`
    const value = used.has(key) ? used.get(key) as T : known.has(key) ? known.get(key) as T : derive(file.contents)
    used.set(key, value)
    return value
  }
}

// Pages are kept as UTF-8 in segment files of their own (./page-store.ts): V8 would store any
// page with one non-Latin character (the language switcher's 中文 is on every page) as two bytes
// per character. A stored page is read and decoded each time its HTML is asked for, and not kept:
// a build that writes nothing new reads none, and one that writes every page holds one at a time.
//
// Its reads are looked up in the table of reads (see Saved) when first asked for, which an edited
// build never does: while the answers are as before (BuildCache.answers), no page's reads are
// checked. Until then the page keeps the places of its reads, and a delta stores those.
const decoder = new TextDecoder()
const storedAt = new WeakMap<CachedPage, Stored>()
const placesOf = new WeakMap<CachedPage, number[]>()
function storedPage(hash: string, places: number[], table: () => ReadPair[], stored: Stored): CachedPage {
  let reads: ReadPair[] | undefined
  const page = {
    hash,
    get reads() {
      if (reads === undefined) { const all = table(); reads = places.map((i) => all[i]!) }
      return reads
    },
    get html() { return htmlOf(stored) },
  }
  storedAt.set(page, stored)
  placesOf.set(page, places)
  return page
}

function htmlOf(stored: Stored): string {
  const bytes = readPage(stored)
  if (!bytes) throw new Error(`${join(CACHE_DIR, stored.at.segment)} could not be read; remove ${CACHE_DIR} and build again.`)
  return decoder.decode(bytes)
}

/** A page this build rendered and `writer` has stored: its HTML is read back when asked for. */
export function keptPage(writer: SegmentWriter, html: string, reads: ReadPair[]): CachedPage {
  const stored = writer.add(html)
  const page = { hash: contentHash(html), reads, get html() { return htmlOf(stored) } }
  storedAt.set(page, stored)
  return page
}

/** The build cache's folder in the site folder: what CI keeps between runs for a warm build (docs/ci/). */
export const CACHE_DIR = '.clinic/cache'

const file = (root: string) => join(root, CACHE_DIR, 'build.bin')
const deltaFile = (root: string) => join(root, CACHE_DIR, 'build-delta.bin')

type ReadPair = CachedPage['reads'][number]
type SavedPage = Omit<CachedPage, 'html' | 'reads'> & { reads: number[]; at: Location }

/**
 * What build.bin holds: the cache, with each page's HTML replaced by where it is stored, and its
 * reads by their places in the table of reads. Most reads are shared (a locale's messages, its
 * services) or come in few answers, so each [read, answer] is stored once: a sixth of build.bin's
 * bytes before. The table is kept serialized (`reads`, `readCount` pairs), to be read only when
 * a page's reads are asked for: a fifth of build.bin's bytes, and of the objects that every later
 * collection of the heap must visit. `generation` names this build.bin, so that a delta made
 * against another is never applied to it.
 */
type Saved = {
  code: string
  generation: string
  reads: Uint8Array
  readCount: number
  pages: Map<string, SavedPage>
} & Omit<BuildCache, 'pages' | 'steps'>

/** The entries of one of the cache's maps that differ from build.bin's, and the keys it no longer has. */
interface Changes<V> { set: Map<string, V>; removed: string[] }

/**
 * What build-delta.bin holds: a later build's cache as the changes to build.bin's (`base`), so that
 * an edit stores the few entries it changed instead of rewriting the 13 MB of a 4,000-article
 * site's build.bin. Its reads continue build.bin's table: the last delta's reads, whose places its
 * pages carried over keep, then this build's; `output` is whole.
 */
interface Delta {
  code: string
  base: string
  reads: ReadPair[]
  pages: Changes<SavedPage>
  facts: Changes<BodyFacts>
  docs: Changes<KnownDoc>
  derived: Changes<unknown>
  output?: Written
  answers?: string
}

/**
 * The build.bin a loaded cache came from, to tell what a later build changed: its entries, by map,
 * and the pages loaded from its own entries (not those the delta replaced, or whose segment is gone).
 */
interface Base {
  generation: string
  /** The pairs in build.bin's table of reads, and those its delta added. */
  readCount: number
  deltaReads: ReadPair[]
  pages: ReadonlyMap<string, SavedPage>
  loadedPages: ReadonlyMap<string, CachedPage>
  facts: ReadonlyMap<string, BodyFacts>
  docs: ReadonlyMap<string, KnownDoc>
  derived: ReadonlyMap<string, unknown>
}
const bases = new WeakMap<BuildCache, Base>()

/** The cache a previous build left, or an empty one when there is none or it is of other code. */
export async function loadCache(root: string, code: string): Promise<BuildCache> {
  try {
    const stored = deserialize(await readFile(file(root))) as Saved
    if (stored.code !== code) return emptyCache()
    const delta = await readDelta(root, stored)
    let reads: ReadPair[] | undefined
    const table = () => reads ??= [...deserialize(stored.reads) as ReadPair[], ...delta?.reads ?? []]
    const savedPages = applied(stored.pages, delta?.pages)
    const segments = openSegments(join(root, CACHE_DIR), new Set([...savedPages.values()].map((page) => page.at.segment)))
    const pages = new Map<string, CachedPage>()
    const loadedPages = new Map<string, CachedPage>()
    for (const [key, saved] of savedPages) {
      const { hash, reads: places, at } = saved
      const segment = segments.get(at.segment)
      // A page whose segment is gone or cut short is rendered again.
      if (!segment || at.offset + at.length > segment.size) continue
      const page = storedPage(hash, places, table, { segment, at })
      pages.set(key, page)
      if (stored.pages.get(key) === saved) loadedPages.set(key, page)
    }
    const docs = applied(stored.docs, delta?.docs)
    for (const known of docs.values()) bodiless.add(known)
    const cache = {
      ...emptyCache(), facts: applied(stored.facts, delta?.facts), pages, docs,
      derived: applied(stored.derived, delta?.derived), output: delta ? delta.output : stored.output, answers: delta ? delta.answers : stored.answers,
    }
    bases.set(cache, { generation: stored.generation, readCount: stored.readCount, deltaReads: delta?.reads ?? [], pages: stored.pages, loadedPages, facts: stored.facts, docs: stored.docs, derived: stored.derived })
    return cache
  } catch {
    return emptyCache()
  }
}

/**
 * build-delta.bin, when it was made against `base`; undefined when there is none, it is another's,
 * or it cannot be read. build.bin alone is then an older cache, whose entries a build checks as it
 * checks any (a page by its reads, a file in the output folder by its size and time).
 */
async function readDelta(root: string, base: Saved): Promise<Delta | undefined> {
  try {
    const delta = deserialize(await readFile(deltaFile(root))) as Delta
    return delta.code === base.code && delta.base === base.generation ? delta : undefined
  } catch {
    return undefined
  }
}

/** `map` with `changes` made to it (a copy; `map` stays build.bin's). */
function applied<V>(map: Map<string, V>, changes: Changes<V> | undefined): Map<string, V> {
  if (!changes) return map
  const result = new Map(map)
  for (const key of changes.removed) result.delete(key)
  for (const [key, value] of changes.set) result.set(key, value)
  return result
}

/** The entries of `now` that are not `base`'s very entries, and the keys of `base` that `now` lacks. */
function changesFrom<B, V>(base: ReadonlyMap<string, B>, now: ReadonlyMap<string, V>, same = (key: string, value: V) => base.has(key) && base.get(key) === value): Changes<V> {
  const set = new Map<string, V>()
  for (const [key, value] of now) if (!same(key, value)) set.set(key, value)
  return { set, removed: [...base.keys()].filter((key) => !now.has(key)) }
}

// build.bin keeps a content file's Doc without its body: the bodies are most of the Docs' bytes,
// and an unchanged file holds its body still.
const bodiless = new WeakSet<KnownDoc>()
const withoutBody = (known: KnownDoc): KnownDoc =>
  known.result.doc ? { ...known, result: { ...known.result, doc: { ...known.result.doc, markdown: '' } } } : known

/**
 * A cached Doc whose file is unchanged, with its body: one read from build.bin gets it back from
 * the file, after its front matter block; undefined when that block is not found there.
 */
export function withBody(file: SourceFile, known: KnownDoc): KnownDoc | undefined {
  const doc = known.result.doc
  if (!doc || !bodiless.delete(known)) return known
  const body = known.head === undefined ? undefined : bodyAfter(file, known.head)
  // Put back in place: no other code has seen the entry yet, and a build that changed nothing
  // must hold the very entries it loaded (see unchanged).
  if (body) doc.markdown = body.markdown
  return body && known
}

/** True when a build re-used every entry of the cache it loaded and added none: nothing to store. */
export function unchanged(loaded: BuildCache, next: BuildCache): boolean {
  const same = <V>(a: ReadonlyMap<string, V> | undefined, b: ReadonlyMap<string, V> | undefined, eq = (x: V, y: V) => x === y) =>
    a !== undefined && b !== undefined && a.size === b.size && [...a].every(([k, v]) => b.has(k) && eq(v, b.get(k)!))
  return same(loaded.pages, next.pages) && same(loaded.facts, next.facts)
    && same(loaded.docs, next.docs) && same(loaded.derived, next.derived)
    && loaded.output?.dir === next.output?.dir && same(loaded.output?.files, next.output?.files) && loaded.answers === next.answers
}

/**
 * Each distinct [read, answer] once, in `list`, numbered from `start` (after the pairs already
 * stored, whose places stay as they are); `place` gives a pair's number.
 */
function readTable(start = 0) {
  const list: ReadPair[] = []
  const places = new Map<Read, Map<string, number>>()
  const place = ([read, answer]: ReadPair): number => {
    const answers = places.get(read) ?? places.set(read, new Map()).get(read)!
    let at = answers.get(answer)
    if (at === undefined) answers.set(answer, (at = start + list.push([read, answer]) - 1))
    return at
  }
  return { list, place }
}

/** A delta larger than this share of the cache's entries is not worth keeping apart: build.bin is written whole. */
const MOST_CHANGED = 0.1

/**
 * Stores this build's cache (so it never grows beyond one build): the pages it rendered go into a
 * new segment, then either build-delta.bin is replaced by what changed since the build.bin that
 * `loaded` came from, or, when there is none or much changed, build.bin is replaced whole; then
 * the segments neither of them points at are removed, unless written since `started` (when this
 * build began, in ms since the epoch). A build stopped half-way leaves the last cache usable.
 */
export async function saveCache(root: string, code: string, cache: BuildCache, loaded: BuildCache | undefined, started: number): Promise<void> {
  const dir = join(root, CACHE_DIR)
  await mkdir(dir, { recursive: true })
  const toStore = new Map([...cache.pages].map(([key, page]): [string, ToStore] => {
    const stored = storedAt.get(page)
    return [key, stored ? { stored } : { html: page.html }]
  }))
  const locations = storePages(dir, toStore)
  const used = new Set([...locations.values()].map((at) => at.segment))
  const base = loaded && bases.get(loaded)
  const delta = base && deltaOf(base, code, cache, locations)
  if (delta) {
    writeWhole(deltaFile(root), serialize(delta))
    for (const saved of base.pages.values()) used.add(saved.at.segment) // build.bin's pages stay readable
  } else {
    writeWhole(file(root), serialize(savedWhole(code, cache, locations)))
    await rm(deltaFile(root), { force: true })
  }
  const names = await readdir(dir)
  await removeSegmentsBut(dir, names, used, started)
  await removeAbandoned(dir, names)
  // Where images were kept before .clinic/cache/files; nothing reads it now.
  await rm(join(dir, 'images'), { recursive: true, force: true })
}

/** Pages as build.bin and its delta keep them: where each is stored, and the places of its reads (`placesFor`). */
const savedPages = (pages: ReadonlyMap<string, CachedPage>, placesFor: (page: CachedPage) => number[], locations: Map<string, Location>) =>
  new Map([...pages].map(([key, page]): [string, SavedPage] => [key, { hash: page.hash, reads: placesFor(page), at: locations.get(key)! }]))
const bodilessDocs = (docs: ReadonlyMap<string, KnownDoc>) => new Map([...docs].map(([path, known]) => [path, withoutBody(known)]))

function savedWhole(code: string, cache: BuildCache, locations: Map<string, Location>): Saved {
  const reads = readTable()
  const pages = savedPages(cache.pages, (page) => page.reads.map(reads.place), locations)
  return {
    code, generation: randomBytes(8).toString('hex'), reads: serialize(reads.list), readCount: reads.list.length, facts: cache.facts, pages,
    docs: bodilessDocs(cache.docs), derived: cache.derived, output: cache.output, answers: cache.answers,
  }
}

/** `cache` as changes to `base`; undefined when they are too many to be worth it. */
function deltaOf(base: Base, code: string, cache: BuildCache, locations: Map<string, Location>): Delta | undefined {
  const sameAt = (a: Location, b: Location) => a.segment === b.segment && a.offset === b.offset && a.length === b.length
  const pages = changesFrom(base.pages, cache.pages, (key, page) => base.loadedPages.get(key) === page && sameAt(base.pages.get(key)!.at, locations.get(key)!))
  const [facts, docs, derived] = [changesFrom(base.facts, cache.facts), changesFrom(base.docs, cache.docs), changesFrom(base.derived, cache.derived)]
  const changed = [pages, facts, docs, derived].reduce((sum, c) => sum + c.set.size + c.removed.length, 0)
  const entries = cache.pages.size + cache.facts.size + cache.docs.size + cache.derived.size
  if (changed > MOST_CHANGED * entries) return undefined
  // A page read back keeps its places: the table stays build.bin's and the last delta's, then this build's pairs.
  const reads = readTable(base.readCount + base.deltaReads.length)
  const saved = savedPages(pages.set, (page) => placesOf.get(page) ?? page.reads.map(reads.place), locations)
  return {
    code, base: base.generation, reads: [...base.deltaReads, ...reads.list], pages: { set: saved, removed: pages.removed },
    facts, docs: { set: bodilessDocs(docs.set), removed: docs.removed }, derived, output: cache.output, answers: cache.answers,
  }
}
