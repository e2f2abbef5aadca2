/**
 * gzip and brotli for text responses, like a CDN: each file is compressed once per version
 * (its size and modification time) and kept in memory, so a thousand requests cost one compression.
 */
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

export type Encoding = 'br' | 'gzip'

/** Files smaller than this gain nothing worth the header. */
export const MIN_COMPRESS_BYTES = 512
/** The memo is emptied when its compressed bodies pass this size, so memory stays bounded. */
const MEMO_LIMIT_BYTES = 64 * 1024 * 1024

/**
 * The encoding to answer with, from an Accept-Encoding header: brotli when accepted, else gzip.
 *   'gzip, deflate, br' -> 'br';  'gzip;q=1, br;q=0' -> 'gzip';  '' -> undefined
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Map<string, number>()
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    accepted.set(name, q === undefined ? 1 : Number(q))
  }
  const ok = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined
}

/**
 * Past this size a file is compressed at a quicker level. Brotli's best level takes about 4 s a
 * megabyte: the content editor's 7 MB script took 28 s on its first request, at level 5 half a
 * second and 16 % more bytes (1.81 MB against 1.57 MB). The site's pages and stylesheets are far
 * below it and keep the best level.
 */
export const LARGE_FILE_BYTES = 1024 * 1024

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) => promisify(brotliCompress)(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: data.length > LARGE_FILE_BYTES ? 5 : constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  }),
  gzip: (data) => promisify(gzip)(data, { level: data.length > LARGE_FILE_BYTES ? 6 : constants.Z_BEST_COMPRESSION }),
}

export class CompressionMemo {
  private entries = new Map<string, Promise<Buffer>>()
  private bytes = 0

  /** The compressed body of `file` at `version`, compressing `read()` on the first request only. */
  get(file: string, version: string, encoding: Encoding, read: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${encoding}:${version}:${file}`
    let body = this.entries.get(key)
    if (!body) {
      if (this.bytes > MEMO_LIMIT_BYTES) { this.entries.clear(); this.bytes = 0 }
      body = read().then((data) => compressors[encoding](data))
      body.then((b) => { this.bytes += b.length }, () => this.entries.delete(key))
      this.entries.set(key, body)
    }
    return body
  }
}
