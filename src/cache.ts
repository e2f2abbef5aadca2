/**
 * The build cache, under the site's .clinic/cache/: what the costly stages derived from each input,
 * keyed by content hash. A body's facts are kept by the hash of its file; a page's minified HTML
 * by its Doc's hash, its route and a hash of everything pages share, with the answers to what it
 * read of other pages (src/reads.ts). Unchanged pages are therefore neither parsed nor rendered
 * again; the whole cache is dropped when the generator's code changes.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import type { ParsedDoc } from './parse.ts'
import type { Read } from './reads.ts'
import type { Written } from './write.ts'
import type { BodyFacts, SourceFile } from './types.ts'

/** Bump when the cached shape changes. */
const FORMAT = 4

export interface BuildCache {
  /** Facts of a body, by `${doc.id} ${doc.hash}`. */
  facts: Map<string, BodyFacts>
  /** Minified HTML of a page and its hash by page key (see build.ts), with what it read of the rest of the site and the answers then. */
  pages: Map<string, CachedPage>
  /** A content file's parse result, by its path, with hashes of its text and of the site configuration it was parsed with. */
  docs: Map<string, { text: string; site: string; result: ParsedDoc }>
  /**
   * In memory only, for the builds of one dev server: the last result of a step by name, with
   * the inputs it came from. Unchanged inputs are the very same strings and objects from one
   * build to the next, so telling them apart costs a pointer comparison.
   */
  steps: Map<string, { inputs: unknown[]; value: unknown }>
  /** The files the last build wrote (src/write.ts), so unchanged ones are linked, not written. */
  output?: Written
}

export interface CachedPage { html: string; hash: string; reads: [Read, string][] }

export const emptyCache = (): BuildCache => ({ facts: new Map(), pages: new Map(), docs: new Map(), steps: new Map() })

/** A step's value by its name and inputs: memo() bound to a cache, or compute() without one. */
export type Remember = <T>(step: string, inputs: unknown[], run: () => T) => T
export const compute: Remember = (_step, _inputs, run) => run()

/** The same inputs, one by one (===): unchanged ones are the very same strings and objects. */
export const sameInputs = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i])

/** The step's last value when called with the same inputs (compared with ===), else computes it. */
export function memo<T>(cache: BuildCache, step: string, inputs: unknown[], run: () => T): T {
  const last = cache.steps.get(step)
  if (last && sameInputs(last.inputs, inputs)) return last.value as T
  const value = run()
  cache.steps.set(step, { inputs, value })
  return value
}

/**
 * `derive`, computed once per object: Docs, body facts, routes and source files are never changed
 * once made, and the cache hands the same objects to later builds, so their derived values are too.
 */
export function oncePer<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>()
  return (key) => {
    if (known.has(key)) return known.get(key)!
    const value = derive(key)
    known.set(key, value)
    return value
  }
}

/**
 * `derive` of a text, kept per key while the key's text stays the same: for per-page steps whose
 * store lives in a step (`remember('name', [], () => perKey(derive))`), so the dev server's
 * rebuilds redo them only for the pages that changed.
 */
export function perKey<V>(derive: (text: string) => V): (key: string, text: string) => V {
  const last = new Map<string, { text: string; value: V }>()
  return (key, text) => {
    const known = last.get(key)
    if (known?.text === text) return known.value
    const value = derive(text)
    last.set(key, { text, value })
    return value
  }
}

/**
 * Results of steps that need a heavy library (sharp, esbuild), kept as files in `dir` between
 * builds, by a key that names a hash of every input: a build that finds its results there neither
 * does that work nor loads the library. New results are written by `save()`, which a build calls
 * only once it succeeded. Without a `dir` every result is made afresh.
 */
export interface KeptFiles {
  <T>(key: string, make: () => T | Promise<T>): Promise<T>
  /** Writes the results this build made and removes the ones it did not ask for, so the folder holds one build's. */
  save(): Promise<void>
}

export function keptFiles(dir?: string): KeptFiles {
  const used = new Set<string>()
  const made = new Map<string, Buffer>()
  const kept = async <T>(key: string, make: () => T | Promise<T>): Promise<T> => {
    if (!dir) return make()
    used.add(key)
    const stored = await readFile(join(dir, key)).catch(() => undefined)
    if (stored) {
      try { return deserialize(stored) as T } catch { /* another format: made again */ }
    }
    const value = await make()
    made.set(key, serialize(value))
    return value
  }
  const save = async () => {
    if (!dir) return
    await mkdir(dir, { recursive: true })
    // Concurrent builds may make the same file: each writes its own and renames it into place.
    await Promise.all([...made].map(async ([key, bytes]) => {
      await writeFile(join(dir, `${key}.${process.pid}.tmp`), bytes)
      await rename(join(dir, `${key}.${process.pid}.tmp`), join(dir, key))
    }))
    const present = await readdir(dir)
    await Promise.all(present.filter((name) => !used.has(name) && !name.endsWith('.tmp')).map((name) => rm(join(dir, name), { force: true })))
  }
  return Object.assign(kept, { save })
}

/** A short content hash of strings. */
export function hashOf(...parts: string[]): string {
  const hash = createHash('sha1')
  for (const part of parts) hash.update(part).update('\0')
  return hash.digest('base64url')
}

/** The version of the generator itself: its code, styles and package.json (templates are versioned per page, src/template-versions.ts). */
export function codeVersion(files: SourceFile[]): string {
  return hashOf(String(FORMAT), ...files.flatMap((f) => [f.path, f.text]))
}

// Pages are stored as UTF-8: V8 would store any page with one non-Latin character (the
// language switcher's 中文 is on every page) as two bytes per character, twice the size.
const decoder = new TextDecoder()
const utf8Pages = (pages: Map<string, CachedPage>) => new Map([...pages].map(([key, page]) => [key, { ...page, html: Buffer.from(page.html) }]))

const file = (root: string) => join(root, '.clinic', 'cache', 'build.bin')

/** The cache a previous build left, or an empty one when there is none or it is of other code. */
export async function loadCache(root: string, code: string): Promise<BuildCache> {
  try {
    const stored = deserialize(await readFile(file(root))) as { code: string } & BuildCache
    if (stored.code !== code) return emptyCache()
    const pages = new Map([...stored.pages].map(([key, page]) => [key, { ...page, html: decoder.decode(page.html as unknown as Uint8Array) }]))
    return { ...emptyCache(), facts: stored.facts, pages, docs: stored.docs, output: stored.output }
  } catch {
    return emptyCache()
  }
}

/** True when a build re-used every entry of the cache it loaded and added none: nothing to store. */
export function unchanged(loaded: BuildCache, next: BuildCache): boolean {
  const same = <V>(a: ReadonlyMap<string, V> | undefined, b: ReadonlyMap<string, V> | undefined, eq = (x: V, y: V) => x === y) =>
    a !== undefined && b !== undefined && a.size === b.size && [...a].every(([k, v]) => b.has(k) && eq(v, b.get(k)!))
  return same(loaded.pages, next.pages) && same(loaded.facts, next.facts)
    && same(loaded.docs, next.docs)
    && loaded.output?.dir === next.output?.dir && same(loaded.output?.files, next.output?.files)
}

/** Replaces the stored cache with this build's entries (so it never grows beyond one build). */
export async function saveCache(root: string, code: string, cache: BuildCache): Promise<void> {
  const target = file(root)
  await mkdir(join(root, '.clinic', 'cache'), { recursive: true })
  await writeFile(`${target}.tmp`, serialize({ code, facts: cache.facts, pages: utf8Pages(cache.pages), docs: cache.docs, output: cache.output }))
  await rename(`${target}.tmp`, target)
  // Where images were kept before .clinic/cache/files; nothing reads it now.
  await rm(join(root, '.clinic', 'cache', 'images'), { recursive: true, force: true })
}
