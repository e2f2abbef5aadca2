/**
 * The build cache: a successful build's outputs stored under the site's .clinic/cache/, keyed by
 * a hash of everything the build reads (sources, templates, the generator's own code). A rebuild
 * of unchanged content re-uses them without parsing or rendering anything.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import type { Project } from './types.ts'

/** Bump when the cached shape changes. */
const FORMAT = 1

/** A hash of every input of a build; equal hashes mean equal outputs. */
export function fingerprint(project: Project, code: { path: string; text: string }[], options: object): string {
  const hash = createHash('sha256').update(`${FORMAT}\0${JSON.stringify(options)}\0`)
  for (const file of [project.siteFile, ...project.content, ...project.localeFiles, ...project.templateFiles, ...code]) {
    hash.update(`${file.path}\0${file.text}\0`)
  }
  hash.update(project.staticFiles.join('\0'))
  return hash.digest('hex').slice(0, 32)
}

const folder = (root: string) => join(root, '.clinic', 'cache')

export async function readCache<T>(root: string, key: string): Promise<T | undefined> {
  try {
    return deserialize(await readFile(join(folder(root), `build-${key}.bin`))) as T
  } catch {
    return undefined
  }
}

/** Stores one build, replacing older ones (only the latest is ever useful). */
export async function writeCache(root: string, key: string, value: unknown): Promise<void> {
  const dir = folder(root)
  await mkdir(dir, { recursive: true })
  for (const old of await readdir(dir)) if (old.startsWith('build-')) await rm(join(dir, old), { force: true })
  await writeFile(join(dir, `build-${key}.bin`), serialize(value))
}
