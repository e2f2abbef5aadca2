import { renameSync, writeFileSync } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Writes `path` whole or not at all: beside it first, then renamed over it. The file beside it is
 * this process's own, so that of two builds of one site at once, each renames a whole file into place.
 */
export function writeWhole(path: string, bytes: Uint8Array): void {
  const beside = `${path}.${process.pid}.tmp`
  writeFileSync(beside, bytes)
  renameSync(beside, path)
}

/** Older than this, a file beside another was left by a build stopped before its rename: no write takes as long. */
const ABANDONED_MS = 60 * 60 * 1000

/** Removes from `dir`, whose files are `names`, those that writeWhole wrote beside others and never renamed. */
export function removeAbandoned(dir: string, names: string[]): Promise<void> {
  return removeWrittenBefore(dir, names.filter((name) => name.endsWith('.tmp')), Date.now() - ABANDONED_MS)
}

/**
 * Removes the files `names` of `dir` last written before `time` (ms since the epoch); newer ones
 * may be another build's, still in use. One that cannot be removed (on Windows, an open file) is
 * left for a later build.
 */
export async function removeWrittenBefore(dir: string, names: string[], time: number): Promise<void> {
  await Promise.all(names.map(async (name) => {
    const stats = await stat(join(dir, name)).catch(() => undefined)
    if (stats?.isFile() && stats.mtimeMs < time) await rm(join(dir, name), { force: true }).catch(() => {})
  }))
}
