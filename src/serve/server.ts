/**
 * The HTTP server shared by `clinic-build serve` and `clinic-build dev`: refuses a request whose
 * Host is not one of its names (host-names.ts), checks each request's path, tries the request
 * handlers (the local contact endpoint, the dev server's events), then answers from the built
 * folder. Binds 127.0.0.1 unless told otherwise; a taken port moves on to the next free one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { realpathSync } from 'node:fs'
import { hostNames } from './host-names.ts'
import { parseTarget } from './request-target.ts'
import { staticFiles, type StaticOptions } from './static-files.ts'

/** Answers a request and resolves true, or resolves false to let the next handler try. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>

export interface ServerOptions extends Omit<StaticOptions, 'dir'> {
  /** The folder to serve. */
  dir: string
  /** Default 8080; 0 picks any free port. */
  port?: number
  /** Default 127.0.0.1: the site is not reachable from other machines unless asked. */
  host?: string
  /** Host names answered besides IP addresses, localhost and `host` (`--allowed-host`); see host-names.ts. */
  allowedHosts?: string[]
  /** Tried in order before the static files. */
  handlers?: RequestHandler[]
  /** Told when the asked-for port is taken and the next one is tried. */
  onPortTaken?: (taken: number, next: number) => void
  /** Told about requests that failed inside the server (a bug, not a user's mistake). */
  onError?: (error: unknown) => void
}

export interface RunningServer {
  /** Example: http://127.0.0.1:8080 */
  url: string
  port: number
  server: Server
  /** Stops accepting connections, ends open ones (event streams included) and resolves when closed. */
  close: () => Promise<void>
}

/** How many ports after a taken one are tried. */
const PORT_ATTEMPTS = 20

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const serveStatic = staticFiles({ ...options, dir: realpathSync(options.dir) })
  const handlers = options.handlers ?? []
  const names = hostNames(host, options.allowedHosts)

  const server = createServer(async (req, res) => {
    try {
      if (!names.allows(req.headers.host)) {
        res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' })
        res.end(names.refusal(req.headers.host))
        return
      }
      const target = parseTarget(req.url)
      if (!target.ok) {
        res.writeHead(target.status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' })
        res.end(`${target.status === 414 ? 'URI too long' : 'Bad request'}: ${target.reason}.\n`)
        return
      }
      for (const handle of handlers) if (await handle(req, res)) return
      await serveStatic(req, res, target)
    } catch (error) {
      options.onError?.(error)
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('Internal server error\n')
    }
  })
  // Requests Node's parser cannot read never reach the handler: Node answers them 400 (431 for
  // oversized headers) and closes the connection.

  const port = await listen(server, options.port ?? 8080, host, options.onPortTaken)
  const shown = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shown}:${port}`,
    port,
    server,
    close: () => new Promise((done) => {
      server.close(() => done())
      server.closeAllConnections()
    }),
  }
}

async function listen(server: Server, port: number, host: string, onPortTaken: ServerOptions['onPortTaken']): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const tried = port + attempt
    try {
      await new Promise<void>((ready, fail) => {
        server.once('error', fail)
        server.listen(tried, host, () => { server.off('error', fail); ready() })
      })
      return (server.address() as { port: number }).port
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EADDRINUSE' || port === 0 || attempt + 1 >= PORT_ATTEMPTS) throw error
      onPortTaken?.(tried, tried + 1)
    }
  }
}
