/**
 * The content editor's local backend, on the dev server's own origin: Decap CMS's file-system
 * backend from the npm package decap-server (`registerLocalFs`, the same code as `npx
 * decap-server`), which reads and writes the Markdown files under the site folder. A save made
 * in /admin/ lands in content/, the watcher sees it, the site rebuilds, the open pages reload.
 *
 * decap-server answers any origin (it sends CORS headers for all): here only requests from the
 * dev server's own pages are let through, so another site open in the same browser cannot write
 * into the site folder.
 */
import { createRequire } from 'node:module'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LOCAL_BACKEND_PATH } from '../../admin/config.ts'
import type { RequestHandler } from '../server.ts'

type App = ((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void) & { disable: (setting: string) => void }

const load = createRequire(import.meta.url)

/** decap-server's own route, which its middleware answers. */
const DECAP_ROUTE = '/api/v1'

/** Loaded on the first request: express and decap-server cost the dev server's start-up nothing. */
export function cmsBackend(root: string): RequestHandler {
  let app: Promise<App> | undefined
  return async (req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== LOCAL_BACKEND_PATH) return false
    if (!fromOwnPages(req)) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The local backend answers the dev server\'s own pages only.\n')
      return true
    }
    const handle = await (app ??= localFs(root))
    req.url = DECAP_ROUTE
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
 * A request from a page of the dev server itself: a browser names the page's origin on every
 * POST, and a JSON body from elsewhere needs a preflight, which is refused here too.
 */
function fromOwnPages(req: IncomingMessage): boolean {
  const origin = req.headers.origin
  if (req.method !== 'POST' || !/^application\/json\b/.test(req.headers['content-type'] ?? '')) return false
  return origin === undefined || origin === `http://${req.headers.host}`
}
