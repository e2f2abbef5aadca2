import { mkdirSync } from 'node:fs'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { removeAbandoned, writeWhole } from './write-whole.ts'

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

/**
 * `maker`: the version of what makes the results (build/cache.ts codeVersion: clinic-build's code
 * and the libraries installed beside it), part of every file's name, so that a result is taken
 * only by the code that would have made it the same.
 */
export function keptFiles(dir?: string, maker = ''): KeptFiles {
  const used = new Set<string>()
  const made = new Map<string, Buffer>()
  const kept = async <T>(key: string, make: () => T | Promise<T>): Promise<T> => {
    if (!dir) return make()
    const name = `${key}~${maker.slice(0, 16)}`
    used.add(name)
    const stored = await readFile(join(dir, name)).catch(() => undefined)
    if (stored) {
      try { return deserialize(stored) as T } catch { /* another format: made again */ }
    }
    const value = await make()
    made.set(name, serialize(value))
    return value
  }
  const save = async () => {
    if (!dir) return
    mkdirSync(dir, { recursive: true })
    for (const [key, bytes] of made) writeWhole(join(dir, key), bytes)
    const present = await readdir(dir)
    await Promise.all(present.filter((name) => !used.has(name) && !name.endsWith('.tmp')).map((name) => rm(join(dir, name), { force: true })))
    await removeAbandoned(dir, present)
  }
  return Object.assign(kept, { save })
}
