/**
 * The build cache, under the site's .clinic/cache/: what the costly stages derived from each input,
 * keyed by content hash. A body's facts are kept by the hash of its file; a page's minified HTML
 * by a hash of its Doc, its route and everything pages share. Unchanged pages are therefore
 * neither parsed nor rendered again; the whole cache is dropped when the generator's code changes.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import type { BodyFacts, SourceFile } from './types.ts'

/** Bump when the cached shape changes. */
const FORMAT = 2

export interface BuildCache {
  /** Facts of a body, by `${doc.id} ${doc.hash}`. */
  facts: Map<string, BodyFacts>
  /** Minified HTML of a page, by page key (see build.ts). */
  pages: Map<string, string>
}

export const emptyCache = (): BuildCache => ({ facts: new Map(), pages: new Map() })

/** A short content hash of strings. */
export function hashOf(...parts: string[]): string {
  const hash = createHash('sha1')
  for (const part of parts) hash.update(part).update('\0')
  return hash.digest('base64url')
}

/** The version of the generator itself: its code, templates and package.json. */
export function codeVersion(files: SourceFile[]): string {
  return hashOf(String(FORMAT), ...files.flatMap((f) => [f.path, f.text]))
}

const file = (root: string) => join(root, '.clinic', 'cache', 'build.bin')

/** The cache a previous build left, or an empty one when there is none or it is of other code. */
export async function loadCache(root: string, code: string): Promise<BuildCache> {
  try {
    const stored = deserialize(await readFile(file(root))) as { code: string } & BuildCache
    return stored.code === code ? { facts: stored.facts, pages: stored.pages } : emptyCache()
  } catch {
    return emptyCache()
  }
}

/** Replaces the stored cache with this build's entries (so it never grows beyond one build). */
export async function saveCache(root: string, code: string, cache: BuildCache): Promise<void> {
  const target = file(root)
  await mkdir(join(root, '.clinic', 'cache'), { recursive: true })
  await writeFile(`${target}.tmp`, serialize({ code, ...cache }))
  await rename(`${target}.tmp`, target)
}
