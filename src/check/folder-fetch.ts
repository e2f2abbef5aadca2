/**
 * A built folder answered inside this thread as `clinic-build serve` answers it over HTTP, with no
 * socket between: the same check of the request's path (request-target.ts) and the same
 * resolution (resolve.ts: the file, the trailing-slash redirect, the nearest 404 page), so the
 * same statuses, redirects, content types and bodies (tests/check/folder-fetch.test.ts holds the
 * two together). For linkinator, which asks through the global fetch: over loopback HTTP, the
 * server and the HTTP client were half of the link check's CPU time.
 *
 *   GET /contact/ -> 200, contact/index.html; GET /contact -> 308 to /contact/; GET /nope/ -> 404, 404.html
 */
import { readFileSync, realpathSync } from 'node:fs'
import { contentType } from '../serve/content-headers.ts'
import { parseTarget } from '../serve/request-target.ts'
import { redirectLocation, resolveRequest, type Folder } from '../serve/resolve.ts'

/** `fetch` that answers URLs on `origin` from `dir`, which stays as it is while the fetch is used, and hands any other to `elsewhere`. */
export function folderFetch(dir: string, origin: string, elsewhere: typeof fetch = globalThis.fetch): typeof fetch {
  const folder: Folder = { dir: realpathSync(dir), unchanging: true }
  return async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (url.origin !== origin) return elsewhere(input, init)
    return answer(folder, request.method, `${url.pathname}${url.search}`)
  }
}

async function answer(folder: Folder, method: string, path: string): Promise<Response> {
  const respond = (status: number, type: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
    new Response(method === 'HEAD' ? null : body, { status, headers: { 'Content-Type': type, ...headers } })
  const plain = (status: number, message: string, headers?: Record<string, string>) => respond(status, 'text/plain; charset=utf-8', `${message}\n`, headers)
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method not allowed', { Allow: 'GET, HEAD' })
  const target = parseTarget(path)
  if (!target.ok) return plain(target.status, `${target.status === 414 ? 'URI too long' : 'Bad request'}: ${target.reason}.`)
  const found = await resolveRequest(folder, target.segments, target.trailingSlash)
  if (found.kind === 'redirect') {
    const location = redirectLocation(found.to, target.pathname, target.search)
    return plain(308, `Moved to ${location}`, { Location: location })
  }
  const file = found.kind === 'file' ? found : found.page
  if (!file) return plain(404, 'Not found')
  return respond(found.kind === 'file' ? 200 : 404, contentType(file.file), readFileSync(file.abs) as Uint8Array<ArrayBuffer>)
}
