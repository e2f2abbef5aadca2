/**
 * The content editor's local backend, on the dev server's own origin: Decap CMS's file-system
 * backend from the npm package decap-server (`registerLocalFs`, the same code as `npx
 * decap-server`), which reads and writes the Markdown files under the site folder. A save made
 * in /admin/ lands in content/, the watcher sees it, the site rebuilds, the open pages reload.
 *
 * decap-server answers any origin (it sends CORS headers for all) and any path of the folder.
 * Here a request is let through only when it comes from this computer and from a page of the
 * dev server itself (its Origin is the address the browser asked, whose name the server has
 * already checked: host-names.ts), and when it touches the editor's files only (editor-files.ts).
 * decap-server then acts on the very body that was checked.
 */
import { createRequire } from 'node:module'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isIP } from 'node:net'
import { LOCAL_BACKEND_PATH } from '../../admin/config.ts'
import type { RequestHandler } from '../server.ts'
import { editorFiles } from './editor-files.ts'

type App = ((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void) & { disable: (setting: string) => void }

const load = createRequire(import.meta.url)

/** decap-server's own route, which its middleware answers. */
const DECAP_ROUTE = '/api/v1'

/** decap-server's own limit on a request's body (an image is sent in it, in base64). */
const MAX_BODY = 50 * 1024 * 1024

/** Loaded on the first request: express and decap-server cost the dev server's start-up nothing. */
export function cmsBackend(root: string, warn: (message: string) => void = () => {}): RequestHandler {
  let app: Promise<App> | undefined
  const files = editorFiles(root, warn)
  return async (req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== LOCAL_BACKEND_PATH) return false
    const refused = callerRefusal(req)
    if (refused) return reply(res, refused.status, { error: refused.error })
    const body = await readJson(req)
    if ('error' in body) return reply(res, body.status, { error: body.error })
    const verdict = await files.check(body.value)
    if ('refuse' in verdict) return reply(res, verdict.refuse.status, { error: `EditorFileRefused: ${verdict.refuse.error}` })
    if ('answer' in verdict) return reply(res, 200, verdict.answer)
    const handle = await (app ??= localFs(root))
    req.url = DECAP_ROUTE
    // The body is read already; body-parser (decap-server's express.json) leaves a request
    // marked so as it is, and decap-server acts on exactly what was checked.
    Object.assign(req, { body: verdict.pass, _body: true })
    return new Promise((answered) => {
      res.on('finish', () => answered(true))
      handle(req, res, (error) => {
        if (!res.headersSent) res.writeHead(error ? 500 : 404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(error ? 'The local backend failed.\n' : 'Not found.\n')
      })
    })
  }
}

async function localFs(root: string): Promise<App> {
  const express = load('express') as () => App
  const { registerLocalFs } = load('decap-server/dist/middlewares') as { registerLocalFs: (app: App, options: { logLevel: string }) => Promise<void> }
  const app = express()
  app.disable('x-powered-by')
  // decap-server takes the folder from the environment when it registers, and from nowhere else.
  const before = process.env.GIT_REPO_DIRECTORY
  process.env.GIT_REPO_DIRECTORY = root
  try {
    await registerLocalFs(app, { logLevel: 'error' })
  } finally {
    if (before === undefined) delete process.env.GIT_REPO_DIRECTORY
    else process.env.GIT_REPO_DIRECTORY = before
  }
  return app
}

/**
 * Why a request is not the editor's, or undefined when it is: the editor's page (served by this
 * server, opened on this computer) sends a JSON POST, and a browser names the page's origin on
 * every POST. A page elsewhere cannot send JSON without a preflight, which is refused too.
 */
function callerRefusal(req: IncomingMessage): { status: 403 | 405 | 415; error: string } | undefined {
  if (!isLoopback(req.socket.remoteAddress)) return { status: 403, error: `BackendNotLocal: the local backend answers this computer only, not ${req.socket.remoteAddress ?? 'another'}.` }
  const own = `http://${req.headers.host}`
  if (req.method !== 'POST') return { status: 405, error: `ForeignOrigin: the local backend answers JSON POSTs from the pages of ${own} only, not a ${req.method}.` }
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return { status: 415, error: `ForeignOrigin: the local backend answers JSON POSTs from the pages of ${own} only.` }
  const origin = req.headers.origin
  if (origin === undefined) return { status: 403, error: `ForeignOrigin: the local backend answers the pages of ${own} only, and this request names no page (no Origin header).` }
  if (origin !== own) return { status: 403, error: `ForeignOrigin: the local backend answers the pages of ${own} only, not ${origin.slice(0, 200)}.` }
  return undefined
}

const isLoopback = (address: string | undefined) => address !== undefined
  && (address === '::1' || (isIP(address.replace(/^::ffff:/, '')) === 4 && address.replace(/^::ffff:/, '').startsWith('127.')))

async function readJson(req: IncomingMessage): Promise<{ value: unknown } | { status: 400 | 413; error: string }> {
  const chunks: Buffer[] = []
  let size = 0
  // Read to its end even when too large: the answer then reaches the browser before the connection closes.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= MAX_BODY) chunks.push(chunk)
  }
  if (size > MAX_BODY) return { status: 413, error: 'The request is larger than the local backend takes (50 MB).' }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }
  } catch {
    return { status: 400, error: 'The request is not valid JSON.' }
  }
}

function reply(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body))
  return true
}
