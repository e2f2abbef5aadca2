/**
 * Where the build cache keeps its pages' HTML: in segment files beside build.bin (html-<id>.bin),
 * apart from the rest. The pages are most of the cache's bytes, and a build that re-uses a page
 * never reads its HTML; a build that renders a few pages adds one small segment of them instead
 * of writing every page again. A segment is written once under a name of its own and never
 * changed, so the bytes a page's location points at stay what they were, whatever build runs
 * next; when the segments hold more superseded bytes than live ones, or grow too many, the live
 * pages are written into one new segment and the rest are removed.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, fstatSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { removeWrittenBefore } from '../util/write-whole.ts'

/** Where a page's UTF-8 HTML sits: a segment's file name, and a byte range in it. */
export interface Location { segment: string; offset: number; length: number }

/**
 * An open segment: its file stays readable while held, even if a later build removes it.
 * `ours`: written by this build, so no saved cache points at it yet.
 */
interface Segment { name: string; fd: number; size: number; ours?: true }

/** A new segment of `dir`, made on the first page added: each page is on disk, and readable, once `add` returns. */
export interface SegmentWriter { add(page: string | Uint8Array): Stored }

/** A page kept by an earlier build: its open segment, and where in it. */
export interface Stored { segment: Segment; at: Location }

// A segment's file is closed when no page of it is held any more (the dev server and the tests
// load many caches in one process).
const closing = new FinalizationRegistry<number>((fd) => { try { closeSync(fd) } catch { /* already closed */ } })

const SEGMENT = /^html-[0-9a-f]+\.bin$/
/** More segments than this and an edited build writes them again as one. */
const MOST_SEGMENTS = 8

/** Opens the named segments of `dir`; one that is missing (removed by a build run at the same time) is left out. */
export function openSegments(dir: string, names: Iterable<string>): Map<string, Segment> {
  const open = new Map<string, Segment>()
  for (const name of names) {
    try {
      const fd = openSync(join(dir, name), 'r')
      const segment = { name, fd, size: fstatSync(fd).size }
      closing.register(segment, fd)
      open.set(name, segment)
    } catch { /* its pages are rendered again */ }
  }
  return open
}

/** A stored page's bytes; undefined when its segment does not hold them (cut short). */
export function readPage({ segment, at }: Stored): Uint8Array | undefined {
  if (at.offset + at.length > segment.size) return undefined
  const bytes = Buffer.allocUnsafe(at.length)
  for (let done = 0; done < at.length;) {
    const read = readSync(segment.fd, bytes, done, at.length - done, at.offset + done)
    if (read === 0) return undefined
    done += read
  }
  return bytes
}

/**
 * Pages are appended to the segment as they are rendered, so that a build holds none of their
 * HTML once it has gone to disk; the segment is named in build.bin only when the cache is saved,
 * and one a stopped build left is removed like any other segment nothing points at.
 */
export function segmentWriter(dir: string): SegmentWriter {
  let segment: Segment | undefined
  return {
    add(page) {
      if (!segment) {
        mkdirSync(dir, { recursive: true })
        const name = `html-${randomBytes(8).toString('hex')}.bin`
        const fd = openSync(join(dir, name), 'wx+')
        segment = { name, fd, size: 0, ours: true }
        closing.register(segment, fd)
      }
      const bytes = typeof page === 'string' ? Buffer.from(page) : page
      for (let done = 0; done < bytes.length;) done += writeSync(segment.fd, bytes, done, bytes.length - done, segment.size + done)
      const at = { segment: segment.name, offset: segment.size, length: bytes.length }
      segment.size += bytes.length
      return { segment, at }
    },
  }
}

/** A page as saveCache hands it over: where it is stored already, or its HTML. */
export type ToStore = { stored: Stored } | { html: string }

/**
 * Stores the pages not stored yet in a new segment of `dir` (or, when the segments in use would
 * be mostly superseded bytes or too many, every page in one new segment), and returns each
 * page's location. The segment is complete on disk before this returns. Nothing a saved cache
 * points at is removed, only a segment of this build's that the new one replaces.
 */
export function storePages(dir: string, pages: Map<string, ToStore>): Map<string, Location> {
  const live = new Map<Segment, number>()
  for (const page of pages.values()) {
    if ('stored' in page) live.set(page.stored.segment, (live.get(page.stored.segment) ?? 0) + page.stored.at.length)
  }
  const liveBytes = [...live.values()].reduce((a, b) => a + b, 0)
  const heldBytes = [...live.keys()].reduce((sum, s) => sum + s.size, 0)
  const fresh = [...pages.values()].some((page) => 'html' in page)
  const rewrite = heldBytes > 2 * liveBytes || live.size + (fresh ? 1 : 0) > MOST_SEGMENTS
  const writer = segmentWriter(dir)
  const locations = new Map<string, Location>()
  for (const [key, page] of pages) {
    const bytes = 'html' in page ? page.html : rewrite ? readPage(page.stored) : undefined
    const at = bytes === undefined && 'stored' in page ? page.stored.at : writer.add(bytes!).at
    locations.set(key, at)
  }
  if (rewrite) for (const segment of live.keys()) if (segment.ours) rmSync(join(dir, segment.name), { force: true })
  return locations
}

/**
 * Removes the segments among `names` (the files of `dir`) that the saved cache does not use, but
 * not those written since `since` (when this build started): another build of the site, run at
 * the same time, may be saving a cache that points at them. One still open elsewhere stays
 * readable there.
 */
export function removeSegmentsBut(dir: string, names: string[], used: Set<string>, since: number): Promise<void> {
  return removeWrittenBefore(dir, names.filter((name) => SEGMENT.test(name) && !used.has(name)), since)
}
