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
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { removeWrittenBefore } from '../util/write-whole.ts'

/** Where a page's UTF-8 HTML sits: a segment's file name, and a byte range in it. */
export interface Location { segment: string; offset: number; length: number }

/** An open segment: its file stays readable while held, even if a later build removes it. */
interface Segment { name: string; fd: number; size: number }

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

/** A page as saveCache hands it over: where it is stored already, or its HTML. */
export type ToStore = { stored: Stored } | { html: string }

/**
 * Stores the pages not stored yet in a new segment of `dir` (or, when the segments in use would
 * be mostly superseded bytes or too many, every page in one new segment), and returns each
 * page's location. The segment is complete on disk before this returns; nothing is removed.
 */
export async function storePages(dir: string, pages: Map<string, ToStore>): Promise<Map<string, Location>> {
  const live = new Map<Segment, number>()
  for (const page of pages.values()) {
    if ('stored' in page) live.set(page.stored.segment, (live.get(page.stored.segment) ?? 0) + page.stored.at.length)
  }
  const liveBytes = [...live.values()].reduce((a, b) => a + b, 0)
  const heldBytes = [...live.keys()].reduce((sum, s) => sum + s.size, 0)
  const fresh = [...pages.values()].some((page) => 'html' in page)
  const rewrite = heldBytes > 2 * liveBytes || live.size + (fresh ? 1 : 0) > MOST_SEGMENTS
  const name = `html-${randomBytes(8).toString('hex')}.bin`
  const locations = new Map<string, Location>()
  const chunks: Uint8Array[] = []
  let offset = 0
  for (const [key, page] of pages) {
    const bytes = 'html' in page ? Buffer.from(page.html) : rewrite ? readPage(page.stored) : undefined
    if (bytes === undefined && 'stored' in page) {
      locations.set(key, { ...page.stored.at, segment: page.stored.segment.name })
      continue
    }
    chunks.push(bytes!)
    locations.set(key, { segment: name, offset, length: bytes!.length })
    offset += bytes!.length
  }
  if (chunks.length > 0) await writeFile(join(dir, name), Buffer.concat(chunks, offset), { flag: 'wx' })
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
