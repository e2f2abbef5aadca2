/**
 * The build cache, under the site's .clinic/cache/: what the costly stages derived from each input,
 * keyed by content hash. A body's facts are kept by the hash of its file; a page's minified HTML
 * by its Doc's hash, its route and a hash of everything pages share, with the answers to what it
 * read of other pages (src/page/reads.ts). Unchanged pages are therefore neither parsed nor rendered
 * again; the whole cache is dropped when the generator's code changes.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { hashOf, sameInputs, type FromContents } from '../util/memo.ts'
import type { ParsedDoc } from '../content/parse.ts'
import type { Read } from '../page/reads.ts'
import type { Written } from './write.ts'
import type { BodyFacts, SourceFile } from '../types.ts'

/** Bump when the cached shape changes. */
const FORMAT = 5

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
 * A stage's fact about an output file, from the cache when a file of the same version had it
 * (see BuildCache.derived); every fact used is carried into `next`, so the cache holds this
 * build's alone. A file without a version is read.
 */
export function fromContentsOf(cache: BuildCache, next: BuildCache): FromContents {
  return <T>(what: string, file: { contents: string | Uint8Array; version?: string }, derive: (contents: string | Uint8Array) => T): T => {
    if (file.version === undefined) return derive(file.contents)
    const key = `${what} ${file.version}`
    const value = next.derived.has(key) ? next.derived.get(key) as T : cache.derived.has(key) ? cache.derived.get(key) as T : derive(file.contents)
    next.derived.set(key, value)
    return value
  }
}

// Pages are stored as UTF-8: V8 would store any page with one non-Latin character (the
// language switcher's 中文 is on every page) as two bytes per character, twice the size. A
// stored page is decoded when its HTML is first read; a build that writes nothing new reads none.
const decoder = new TextDecoder()
const storedBytes = new WeakMap<CachedPage, Uint8Array>()
function storedPage({ html: bytes, hash, reads }: Omit<CachedPage, 'html'> & { html: Uint8Array }): CachedPage {
  let html: string | undefined
  const page = { hash, reads, get html() { return (html ??= decoder.decode(bytes)) } }
  storedBytes.set(page, bytes)
  return page
}
const utf8Pages = (pages: Map<string, CachedPage>) => new Map([...pages].map(([key, page]) => [key, { hash: page.hash, reads: page.reads, html: storedBytes.get(page) ?? Buffer.from(page.html) }]))

/** The build cache's folder in the site folder: what CI keeps between runs for a warm build (docs/ci/). */
export const CACHE_DIR = '.clinic/cache'

const file = (root: string) => join(root, CACHE_DIR, 'build.bin')

/** The cache a previous build left, or an empty one when there is none or it is of other code. */
export async function loadCache(root: string, code: string): Promise<BuildCache> {
  try {
    const stored = deserialize(await readFile(file(root))) as { code: string } & BuildCache
    if (stored.code !== code) return emptyCache()
    const pages = new Map([...stored.pages].map(([key, page]) => [key, storedPage(page as unknown as Parameters<typeof storedPage>[0])]))
    return { ...emptyCache(), facts: stored.facts, pages, docs: stored.docs, derived: stored.derived, output: stored.output }
  } catch {
    return emptyCache()
  }
}

/** True when a build re-used every entry of the cache it loaded and added none: nothing to store. */
export function unchanged(loaded: BuildCache, next: BuildCache): boolean {
  const same = <V>(a: ReadonlyMap<string, V> | undefined, b: ReadonlyMap<string, V> | undefined, eq = (x: V, y: V) => x === y) =>
    a !== undefined && b !== undefined && a.size === b.size && [...a].every(([k, v]) => b.has(k) && eq(v, b.get(k)!))
  return same(loaded.pages, next.pages) && same(loaded.facts, next.facts)
    && same(loaded.docs, next.docs) && same(loaded.derived, next.derived)
    && loaded.output?.dir === next.output?.dir && same(loaded.output?.files, next.output?.files)
}

/** Replaces the stored cache with this build's entries (so it never grows beyond one build). */
export async function saveCache(root: string, code: string, cache: BuildCache): Promise<void> {
  const target = file(root)
  await mkdir(join(root, CACHE_DIR), { recursive: true })
  await writeFile(`${target}.tmp`, serialize({ code, facts: cache.facts, pages: utf8Pages(cache.pages), docs: cache.docs, derived: cache.derived, output: cache.output }))
  await rename(`${target}.tmp`, target)
  // Where images were kept before .clinic/cache/files; nothing reads it now.
  await rm(join(root, CACHE_DIR, 'images'), { recursive: true, force: true })
}
