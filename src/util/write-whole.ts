import { renameSync, writeFileSync } from 'node:fs'

/**
 * Writes `path` whole or not at all: beside it first, then renamed over it. The file beside it is
 * this process's own, so that of two builds of one site at once, each renames a whole file into place.
 */
export function writeWhole(path: string, bytes: Uint8Array): void {
  const beside = `${path}.${process.pid}.tmp`
  writeFileSync(beside, bytes)
  renameSync(beside, path)
}
