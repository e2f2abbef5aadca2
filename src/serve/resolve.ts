/**
 * Maps a checked request path to what a CDN would answer from a built folder:
 *   /contact/  -> the file contact/index.html
 *   /contact   -> a redirect to /contact/ (when contact/index.html exists)
 *   /contact/index.html -> a redirect to /contact/, as Cloudflare Pages answers: one address a page
 *   /cn/nope/  -> not found, with the nearest 404.html up the path (cn/404.html, else 404.html)
 * Locale prefixes are not known here: a locale's 404 page is simply the 404.html in its folder.
 */
import { realpath, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { walkFolder } from '../util/walk-folder.ts'

export type Resolution =
  | { kind: 'file'; file: string; abs: string }
  | { kind: 'redirect'; to: 'folder' | 'index' }
  | { kind: 'not-found'; page?: { file: string; abs: string } }

export interface Folder {
  /** The served folder, absolute and with symbolic links resolved. */
  dir: string
  /** Hides files that are on disk but not part of the current site (the dev server's stale pages). */
  isPublished?: (file: string) => boolean
  /**
   * The folder stays as it is while served (`check`): it is listed once, and what any other path
   * is, is asked of the disk once. Otherwise every request asks again, so a rebuilt folder is
   * served at once.
   */
  unchanging?: boolean
}

/** Files of the folder that are never served: dot files and the host's configuration. */
const PRIVATE = /(^|\/)\.|^_(headers|redirects)$/

export async function resolveRequest(folder: Folder, segments: string[], trailingSlash: boolean): Promise<Resolution> {
  const notFound = async (): Promise<Resolution> => ({ kind: 'not-found', page: await nearest404(folder, segments) })
  if (segments.some((s) => s === '')) return notFound()
  const path = segments.join('/')
  const kind = await kindOf(folder, path)
  if (kind === 'file' && !trailingSlash) {
    return segments.at(-1) === 'index.html' ? { kind: 'redirect', to: 'index' } : { kind: 'file', file: path, abs: join(folder.dir, path) }
  }
  if (kind === 'dir') {
    const index = path ? `${path}/index.html` : 'index.html'
    if (await kindOf(folder, index) === 'file') {
      return trailingSlash || !path ? { kind: 'file', file: index, abs: join(folder.dir, index) } : { kind: 'redirect', to: 'folder' }
    }
  }
  return notFound()
}

/** Where a redirect leads: the folder's address, the query kept ('/contact?a' and '/contact/index.html?a' -> '/contact/?a'). */
export function redirectLocation(to: 'folder' | 'index', pathname: string, search: string): string {
  return `${to === 'folder' ? `${pathname}/` : pathname.slice(0, -'index.html'.length)}${search}`
}

async function nearest404(folder: Folder, segments: string[]): Promise<{ file: string; abs: string } | undefined> {
  for (let depth = segments.length; depth >= 0; depth--) {
    const file = [...segments.slice(0, depth), '404.html'].filter(Boolean).join('/')
    if (await kindOf(folder, file) === 'file') return { file, abs: join(folder.dir, file) }
  }
  return undefined
}

type Kind = 'file' | 'dir' | undefined
const knownKinds = new WeakMap<Folder, Map<string, Promise<Kind>>>()

function kindOf(folder: Folder, file: string): Promise<Kind> {
  if (!folder.unchanging) return kindOnDisk(folder, file)
  const known = knownKinds.get(folder) ?? knownKinds.set(folder, listed(folder)).get(folder)!
  return known.get(file) ?? known.set(file, kindOnDisk(folder, file)).get(file)!
}

/**
 * The files and folders of an unchanging folder, from one listing: asking the disk what each
 * requested path is (a stat and a realpath, twice for a page) was most of the server's work for
 * the link check. Symbolic links are left to kindOnDisk, which sees where they lead.
 */
function listed(folder: Folder): Map<string, Promise<Kind>> {
  const kinds = new Map<string, Promise<Kind>>([['', Promise.resolve('dir')]])
  walkFolder(folder.dir, (file, entry) => {
    if (PRIVATE.test(file)) return false
    if (entry.isDirectory()) {
      kinds.set(file, Promise.resolve('dir'))
      return true
    }
    if (entry.isFile()) kinds.set(file, Promise.resolve(folder.isPublished?.(file) ?? true ? 'file' : undefined))
  })
  return kinds
}

/** What `file` (relative, already checked segment by segment) is, if it may be served at all. */
async function kindOnDisk(folder: Folder, file: string): Promise<Kind> {
  if (PRIVATE.test(file)) return undefined
  const abs = join(folder.dir, file)
  try {
    const stats = await stat(abs)
    // A symbolic link inside the folder must not lead out of it.
    const real = await realpath(abs)
    if (real !== folder.dir && !real.startsWith(folder.dir + sep)) return undefined
    if (stats.isDirectory()) return 'dir'
    if (stats.isFile() && (folder.isPublished?.(file) ?? true)) return 'file'
    return undefined
  } catch {
    return undefined
  }
}
