/**
 * Answers GET and HEAD requests from a built folder the way a CDN would: trailing-slash redirects,
 * per-locale 404 pages, content types with charset, caching headers, gzip/brotli and the build's
 * `_headers`. sirv sends the files; this module decides which file and which headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { readFileSync, statSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { readFile, stat } from 'node:fs/promises'
import sirv from 'sirv'
import { cachePolicy, contentType, isCompressible } from './content-headers.ts'
import { chooseEncoding, CompressionMemo, LARGE_FILE_BYTES, MIN_COMPRESS_BYTES } from './compress.ts'
import type { HeaderRules } from './netlify-headers.ts'
import type { Target } from './request-target.ts'
import { redirectLocation, resolveRequest, type Folder } from './resolve.ts'
import { oncePerKey } from '../util/memo.ts'
import { walkFolder } from '../util/walk-folder.ts'

export interface StaticOptions extends Folder {
  /** Cache-Control for every response instead of the CDN policy (the dev server: no-store). */
  cacheControl?: string
  /** gzip and brotli when the client accepts them (default true). */
  compress?: boolean
  /** Headers from the build's `_headers`, applied last. */
  headerRules?: HeaderRules
  /**
   * Compress the folder's large files (the content editor's script) in brotli as the server
   * starts, so that the first request for one finds it ready, as it finds a small file (`serve`).
   */
  compressAhead?: boolean
}

type OkTarget = Extract<Target, { ok: true }>

export function staticFiles(options: StaticOptions) {
  // sirv reads the disk on every request (`dev`), so a rebuilt folder is served at once; it only
  // ever sees the exact path of a file chosen below.
  const send = sirv(options.dir, { dev: true, etag: true, extensions: [], dotfiles: true })
  const memo = new CompressionMemo()
  // An unchanging folder is served to this machine's own checks: its small files are read at
  // once, which costs less than handing each read to the thread pool and back (resolve.ts lists
  // the folder once for the same reason).
  const statOf: (abs: string) => Promise<Stats> = options.unchanging ? oncePerKey(async (abs) => statSync(abs)) : (abs) => stat(abs)
  const read = options.unchanging ? async (abs: string) => readFileSync(abs) : (abs: string) => readFile(abs)
  if (options.compress !== false && options.compressAhead) setImmediate(() => compressLarge(options.dir, memo, read))

  return async function serveStatic(req: IncomingMessage, res: ServerResponse, target: OkTarget): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n')
      return
    }
    const found = await resolveRequest(options, target.segments, target.trailingSlash)
    if (found.kind === 'redirect') {
      const location = redirectLocation(found.to, target.pathname, target.search)
      res.writeHead(308, { Location: location, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': options.cacheControl ?? 'public, max-age=3600' })
      res.end(`Moved to ${location}\n`)
      return
    }
    if (found.kind === 'not-found' && !found.page) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': options.cacheControl ?? 'no-cache' }).end('Not found\n')
      return
    }
    const { file, abs } = found.kind === 'file' ? found : found.page!
    const status = found.kind === 'file' ? 200 : 404
    const type = contentType(file)
    res.statusCode = status
    res.setHeader('Content-Type', type)
    res.setHeader('Cache-Control', status === 404 ? 'no-cache' : options.cacheControl ?? cachePolicy(file))
    const compressible = options.compress !== false && isCompressible(type)
    if (compressible) res.setHeader('Vary', 'Accept-Encoding')
    for (const [name, value] of Object.entries(options.headerRules?.(target.pathname) ?? {})) res.setHeader(name, value)

    const encoding = compressible && !req.headers.range ? chooseEncoding(req.headers['accept-encoding']) : undefined
    const stats = await statOf(abs)
    if (encoding && stats.size >= MIN_COMPRESS_BYTES) {
      const version = versionOf(stats)
      const etag = `W/"${version}-${encoding}"`
      if (status === 200 && req.headers['if-none-match'] === etag) { res.writeHead(304, { ETag: etag }).end(); return }
      const body = await memo.get(abs, version, encoding, () => read(abs))
      res.writeHead(status, { 'Content-Encoding': encoding, 'Content-Length': body.length, ETag: etag, 'Last-Modified': stats.mtime.toUTCString() })
      res.end(body)
      return
    }
    if (status === 404 || options.unchanging) {
      // sirv would answer a 404 page with 200, and asks the disk again what each file is.
      if (status === 200) {
        const etag = `W/"${versionOf(stats)}"`
        if (req.headers['if-none-match'] === etag) { res.writeHead(304, { ETag: etag }).end(); return }
        res.setHeader('ETag', etag)
        res.setHeader('Last-Modified', stats.mtime.toUTCString())
      }
      res.setHeader('Content-Length', stats.size)
      res.end(req.method === 'HEAD' ? undefined : await read(abs))
      return
    }
    req.url = encodeURI(`/${file}`)
    send(req, res, () => { res.writeHead(404).end() })
  }
}

/** A file's version, in its ETag and its compressed bodies' key: a compression made ahead is found by the request. */
const versionOf = (stats: Stats) => `${stats.size}-${stats.mtime.getTime()}`

/** Brotli bodies of the folder's compressible files over LARGE_FILE_BYTES, made one after another in the background. */
async function compressLarge(dir: string, memo: CompressionMemo, read: (abs: string) => Promise<Buffer>): Promise<void> {
  const large: { abs: string; version: string }[] = []
  walkFolder(dir, (path, entry) => {
    if (entry.isDirectory()) return true
    if (!entry.isFile() || !isCompressible(contentType(path))) return
    const stats = statSync(join(dir, path))
    if (stats.size > LARGE_FILE_BYTES) large.push({ abs: join(dir, path), version: versionOf(stats) })
  })
  // A failure here is only a lost head start: the request compresses the file itself.
  for (const file of large) await memo.get(file.abs, file.version, 'br', () => read(file.abs)).catch(() => undefined)
}
