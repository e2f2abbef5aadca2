/**
 * The path of an HTTP request, checked before anything touches the disk. A request is refused
 * (400) when its path could name something outside the served folder however it is encoded:
 * `..` or `.` segments (also as `%2e%2e`), encoded slashes or backslashes, null bytes, control
 * characters, or malformed percent-encoding. Very long paths get 414.
 *
 *   parseTarget('/cn/contact?x=1') -> { ok: true, segments: ['cn', 'contact'], trailingSlash: false, search: '?x=1', … }
 *   parseTarget('/%2e%2e/etc/passwd') -> { ok: false, status: 400 }
 */

/** Longer paths than this are answered 414; no page of the site comes near it. */
export const MAX_PATH_LENGTH = 1024

export type Target =
  | { ok: true; pathname: string; segments: string[]; trailingSlash: boolean; search: string }
  | { ok: false; status: 400 | 414; reason: string }

export function parseTarget(url: string | undefined): Target {
  if (!url || !url.startsWith('/')) return refuse('the request target is not a path')
  const queryAt = url.indexOf('?')
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt)
  const search = queryAt === -1 ? '' : url.slice(queryAt)
  if (pathname.length > MAX_PATH_LENGTH) return { ok: false, status: 414, reason: 'the path is too long' }
  if (/[#\\]|%(2f|5c|00)/i.test(pathname)) return refuse('the path holds an encoded separator, a backslash or a null byte')
  const raw = pathname.slice(1).split('/')
  const trailingSlash = raw.at(-1) === ''
  if (trailingSlash) raw.pop()
  const segments: string[] = []
  for (const part of raw) {
    let segment: string
    try { segment = decodeURIComponent(part) } catch { return refuse('the path is not valid percent-encoding') }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f\\/]/.test(segment)) return refuse('the path holds a control character or a separator')
    if (segment === '.' || segment === '..') return refuse('the path holds a "." or ".." segment')
    segments.push(segment)
  }
  return { ok: true, pathname, segments, trailingSlash, search }
}

const refuse = (reason: string): Target => ({ ok: false, status: 400, reason })
