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
export async function removeAbandoned(dir: string, names: string[]): Promise<void> {
  await Promise.all(names.filter((name) => name.endsWith('.tmp')).map(async (name) => {
    const stats = await stat(join(dir, name)).catch(() => undefined)
    if (stats?.isFile() && Date.now() - stats.mtimeMs > ABANDONED_MS) await rm(join(dir, name), { force: true })
  }))
}
