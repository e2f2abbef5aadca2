/** Small memo helpers the stages share: a content hash, values derived once per object or per key. */
import { createHash } from 'node:crypto'

/** A step's value by its name and inputs: memo() bound to a cache, or compute() without one. */
export type Remember = <T>(step: string, inputs: unknown[], run: () => T) => T
export const compute: Remember = (_step, _inputs, run) => run()

/**
 * A fact `derive` finds in a file's contents, named `what`: fromContentsOf() (src/build/cache.ts)
 * keeps it by the file's version, so a file whose version the last build saw need not be read.
 */
export type FromContents = <T>(what: string, file: { contents: string | Uint8Array; version?: string }, derive: (contents: string | Uint8Array) => T) => T
export const readContents: FromContents = (_what, file, derive) => derive(file.contents)

/**
 * `file` with contents made the first time they are asked for, then kept: for outputs with a
 * version, which the write stage compares with the output folder's before it needs the contents.
 */
export function madeWhenRead<F extends { path: string; version: string }, C extends string | Uint8Array>(file: F, make: () => C): F & { readonly contents: C } {
  let contents: C | undefined
  return { ...file, get contents() { return (contents ??= make()) } }
}

/** The same inputs, one by one (===): unchanged ones are the very same strings and objects. */
export const sameInputs = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i])

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

/** `derive` once per key for as long as the result is held: for keys that repeat (languages, file paths). */
export function oncePerKey<V>(derive: (key: string) => V): (key: string) => V {
  const known = new Map<string, V>()
  return (key) => {
    if (!known.has(key)) known.set(key, derive(key))
    return known.get(key)!
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

/** A short content hash of strings. */
export function hashOf(...parts: string[]): string {
  const hash = createHash('sha1')
  for (const part of parts) hash.update(part).update('\0')
  return hash.digest('base64url')
}
