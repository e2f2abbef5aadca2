import { renameSync, writeFileSync } from 'node:fs'

/** Writes `path` whole or not at all: beside it first, then renamed over it. */
export function writeWhole(path: string, bytes: Uint8Array): void {
  writeFileSync(`${path}.tmp`, bytes)
  renameSync(`${path}.tmp`, path)
}
