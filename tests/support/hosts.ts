/**
 * The built site as each static host serves it, on 127.0.0.1 (port 0 or a free one):
 * - Cloudflare Pages on its own runtime: `wrangler pages dev` (workerd), pinned in tools/wrangler;
 * - Netlify: `_headers` and `_redirects` read with Netlify's own parsers, and applied as Netlify
 *   documents them (a small model: Netlify's server does not run here);
 * - GitHub Pages: its documented behaviour in a few lines (no headers, the root 404.html).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseAllHeaders, type Header } from '@netlify/headers-parser'
import { parseAllRedirects } from '@netlify/redirect-parser'
import { contentType } from '../../src/serve/content-headers.ts'
import type { RunningServer } from './browser.ts'
import { projectRoot } from './helpers.ts'
import { freePort } from './http.ts'

const TOOLS = join(projectRoot, 'tools/wrangler')
export const WRANGLER = join(TOOLS, 'node_modules/wrangler/bin/wrangler.js')
const WRANGLER_NODE = join(TOOLS, '.node/bin/node')

/** The wrangler version tools/wrangler pins, for the test names and the docs. */
export const wranglerVersion = (): string => (JSON.parse(readFileSync(join(TOOLS, 'package.json'), 'utf8')) as { dependencies: { wrangler: string } }).dependencies.wrangler

/** A missing wrangler fails the test that needs it, saying how to install it. */
export function requireWrangler(): void {
  if (!existsSync(WRANGLER) || !existsSync(WRANGLER_NODE)) {
    throw new Error('wrangler is not installed in tools/wrangler: run `npm run tools` (scripts/tools.sh; it needs the npm registry once), then run the tests again.')
  }
}

/** `wrangler pages dev <dir>`: Cloudflare's workerd serving the folder, no network needed. */
export async function wranglerPagesDev(dir: string): Promise<RunningServer & { log: () => string }> {
  requireWrangler()
  const [port, inspector] = [await freePort(), await freePort()]
  // Its state and logs go to a folder of its own; the compatibility date is the one this wrangler
  // defaults to (given, so that it does not warn); no metrics, error reports or banner.
  const state = mkdtempSync(join(tmpdir(), 'clinic-wrangler-'))
  const child = spawn(WRANGLER_NODE, [WRANGLER, 'pages', 'dev', dir, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector),
    '--compatibility-date', '2026-11-17', '--persist-to', join(state, 'state'), '--show-interactive-dev-session=false', '--log-level', 'warn'], {
    cwd: state,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', WRANGLER_HIDE_BANNER: 'true', NO_UPDATE_NOTIFIER: '1', CI: 'true' },
  })
  let log = ''
  child.stdout.on('data', (c) => { log += c })
  child.stderr.on('data', (c) => { log += c })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const url = `http://127.0.0.1:${port}`
  // Ready when it answers; its own "Ready" line comes before workerd listens.
  for (let answered = false; !answered;) {
    if (child.exitCode !== null) throw new Error(`wrangler pages dev exited:\n${log}`)
    answered = await fetch(`${url}/`, { method: 'HEAD' }).then(() => true, () => false)
    if (!answered) await new Promise((later) => setTimeout(later, 200))
  }
  return { url, log: () => log, close: async () => { if (child.exitCode === null) { child.kill('SIGTERM'); await exited } } }
}

async function listen(handle: (req: IncomingMessage, res: ServerResponse, path: string, search: string) => void): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://host')
    handle(req, res, decodeURIComponent(url.pathname), url.search)
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()) }),
  }
}

/** What a static host finds at a path: a file, a folder's index.html to redirect to, or nothing. */
function staticAt(dir: string, path: string): { file: string } | { redirect: true } | undefined {
  const isFile = (file: string) => existsSync(join(dir, file)) && statSync(join(dir, file)).isFile()
  const relative = path.slice(1)
  if (path.endsWith('/')) return isFile(`${relative}index.html`) ? { file: `${relative}index.html` } : undefined
  if (/(^|\/)_(headers|redirects)$/.test(relative)) return undefined
  if (isFile(relative)) return { file: relative }
  return isFile(`${relative}/index.html`) ? { redirect: true } : undefined
}

function send(res: ServerResponse, dir: string, file: string, status: number, headers: Record<string, string>): void {
  res.writeHead(status, { 'Content-Type': contentType(file), ...headers }).end(readFileSync(join(dir, file)))
}

/**
 * Netlify, as its docs describe it: the first `_redirects` rule whose path and conditions match
 * applies, unless a file exists at the path and the rule is not forced (`!`: "shadowing");
 * status 200 serves the rule's target, 3xx redirects to it, 404 serves it with status 404. With no
 * rule, a folder without its slash is redirected (301) to it, and a missing path gets the root
 * 404.html. Headers: every matching `_headers` rule, a later value replacing an earlier one (as
 * Netlify's CLI applies them), over Netlify's default caching of revalidating every file.
 */
export async function netlifyHost(dir: string): Promise<RunningServer> {
  const headerFile = await parseAllHeaders({ headersFiles: [join(dir, '_headers')], configHeaders: [], minimal: false })
  const redirectFile = await parseAllRedirects({ redirectsFiles: [join(dir, '_redirects')], configRedirects: [], minimal: false })
  const errors = [...headerFile.errors, ...redirectFile.errors]
  if (errors.length) throw new Error(`Netlify's parsers refuse the host files:\n${errors.map((e: Error) => e.message).join('\n')}`)
  const headerRules = headerFile.headers as Header[]
  const redirects = redirectFile.redirects as NetlifyRedirect[]
  const headersFor = (path: string) => Object.assign({ 'Cache-Control': 'public, max-age=0, must-revalidate' }, ...headerRules.filter((r) => r.forRegExp.test(path)).map((r) => r.values)) as Record<string, string>
  return listen((req, res, path, search) => {
    const found = staticAt(dir, path)
    const rule = redirects.find((r) => matches(r, path, req) && (r.force || !found))
    const headers = headersFor(path)
    if (rule) {
      const to = rule.to.replace(':splat', splatOf(rule.from, path))
      if (rule.status >= 300 && rule.status < 400) { res.writeHead(rule.status, { Location: to, ...headers }).end(); return }
      const target = staticAt(dir, to)
      if (target && 'file' in target) { send(res, dir, target.file, rule.status, headers); return }
    }
    if (found && 'redirect' in found) { res.writeHead(301, { Location: `${path}/${search}`, ...headers }).end(); return }
    if (found) send(res, dir, found.file, 200, headers)
    else send(res, dir, '404.html', 404, headers)
  })
}

interface NetlifyRedirect { from: string; to: string; status: number; force: boolean; conditions: { Language?: string[]; Cookie?: string | string[] } }

const splatOf = (from: string, path: string) => (from.endsWith('*') ? path.slice(from.length - 1) : '')

/** A rule's path (`*` at its end matches the rest) and its conditions: the visitor's language, a cookie they hold. */
function matches(rule: NetlifyRedirect, path: string, req: IncomingMessage): boolean {
  const pathMatches = rule.from.endsWith('*') ? path.startsWith(rule.from.slice(0, -1)) : path === rule.from || path === `${rule.from}/`
  if (!pathMatches) return false
  const languages = (req.headers['accept-language'] ?? '').split(',').map((l) => l.split(';')[0]!.trim().toLowerCase().split('-')[0])
  if (rule.conditions.Language && !rule.conditions.Language.some((l) => languages.includes(l.toLowerCase()))) return false
  const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.split('=')[0]!.trim())
  const wanted = rule.conditions.Cookie === undefined ? [] : [rule.conditions.Cookie].flat()
  return wanted.every((name) => cookies.includes(name))
}

/**
 * GitHub Pages, as its docs describe it: files as they are, a folder without its slash redirected
 * (301) to it, the root 404.html with status 404 for every missing path, and no headers of the
 * site's own (`_headers` is not read; the pages' <meta> policy applies). GitHub's own caching: ten minutes.
 */
export async function githubPagesHost(dir: string): Promise<RunningServer> {
  return listen((_req, res, path, search) => {
    const found = staticAt(dir, path)
    const headers = { 'Cache-Control': 'max-age=600' }
    if (found && 'redirect' in found) res.writeHead(301, { Location: `${path}/${search}`, ...headers }).end()
    else if (found) send(res, dir, found.file, 200, headers)
    else send(res, dir, '404.html', 404, headers)
  })
}
