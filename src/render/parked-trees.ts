/**
 * Where a renderer's parsed trees wait for their pages, serialized. The first few megabytes stay in
 * memory (a small site, a dev save); beyond that they go to a scratch file and are read back when
 * their page is rendered, so that a shard's memory does not grow with the site (serialized, an
 * article's tree is about 11 KB: 110 MB at 10,000 articles).
 */
import { randomBytes } from 'node:crypto'
import { openSync, readSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Bytes of trees a renderer keeps in memory before it parks them in its scratch file. */
const IN_MEMORY = 32 * 1024 * 1024

/**
 * A scratch file for one renderer, or undefined when none can be made (its trees then stay in
 * memory). It is unlinked as soon as it is open, so nothing is left behind however the build
 * ends; its opener closes it when the renderer's thread has ended.
 */
export function openScratch(): number | undefined {
  const path = join(tmpdir(), `clinic-build-trees-${process.pid}-${randomBytes(6).toString('hex')}`)
  try {
    const fd = openSync(path, 'wx+', 0o600)
    rmSync(path)
    return fd
  } catch {
    return undefined
  }
}

export interface ParkedTrees {
  park(id: string, bytes: Buffer): void
  /** The bytes parked for `id`, once: they are forgotten as they are taken. */
  take(id: string): Buffer | undefined
}

/** `scratch`: an open file of openScratch's, written from its start. */
export function parkedTrees(scratch: number | undefined, inMemory = IN_MEMORY): ParkedTrees {
  const held = new Map<string, Buffer>()
  const parked = new Map<string, { offset: number; length: number }>()
  let heldBytes = 0
  let size = 0

  const take = (id: string): Buffer | undefined => {
    const kept = held.get(id)
    if (kept) {
      held.delete(id)
      heldBytes -= kept.length
      return kept
    }
    const at = parked.get(id)
    if (!at || scratch === undefined) return undefined
    parked.delete(id)
    const bytes = Buffer.allocUnsafe(at.length)
    for (let done = 0; done < at.length;) {
      const read = readSync(scratch, bytes, done, at.length - done, at.offset + done)
      if (read === 0) throw new Error(`the scratch file of parsed trees ends early (at ${at.offset + done} of ${at.offset + at.length})`)
      done += read
    }
    return bytes
  }

  return {
    take,
    park(id, bytes) {
      take(id) // a body parsed again replaces its tree
      if (scratch === undefined || heldBytes + bytes.length <= inMemory) {
        held.set(id, bytes)
        heldBytes += bytes.length
        return
      }
      for (let done = 0; done < bytes.length;) done += writeSync(scratch, bytes, done, bytes.length - done, size + done)
      parked.set(id, { offset: size, length: bytes.length })
      size += bytes.length
    },
  }
}
