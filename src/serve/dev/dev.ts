/**
 * `clinic-build dev`: builds the site into .clinic/dev, serves it, watches the sources, rebuilds
 * on every save (one rebuild at a time, changes queued) and tells the open tabs: reload, swap the
 * stylesheet, or show the errors while the last good build stays served.
 */
import { build as bundle } from 'esbuild'
import { spawn } from 'node:child_process'
import { mkdir, rm } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join, resolve } from 'node:path'
import { packageDir } from '../../util/package.ts'
import { formatDiagnostic } from '../../errors.ts'
import type { Diagnostic } from '../../types.ts'
import { localHandlers } from '../local-handlers.ts'
import { cmsBackend } from './cms-backend.ts'
import { startServer, type RequestHandler, type RunningServer } from '../server.ts'
import { stopOnSignals } from '../signals.ts'
import { PreviewBuilder } from './builder.ts'
import type { BuildReport } from './build-worker.ts'
import { BrowserEvents } from './events.ts'
import { CLIENT_PATH, injectDev } from './inject.ts'
import { rebuildQueue } from './queue.ts'
import { watchInThread } from './watch.ts'

export interface DevOptions {
  /** The site folder. */
  root: string
  port: number
  host: string
  /** Host names to answer besides IP addresses and localhost (`--allowed-host`). */
  allowedHosts?: string[]
  open?: boolean
}

export interface RunningDev extends RunningServer {
  /** Resolves when no rebuild runs or waits. */
  idle: () => Promise<void>
}

const SOURCES = ['content', 'locales', 'static']

export async function dev(options: DevOptions, cwd = process.cwd()): Promise<RunningDev> {
  const root = resolve(cwd, options.root)
  const outDir = join(root, '.clinic', 'dev')
  await rm(outDir, { recursive: true, force: true })
  await mkdir(outDir, { recursive: true })

  const events = new BrowserEvents()
  const builder = new PreviewBuilder(root, outDir)
  const state = { published: new Set<string>(), hasBuilt: false, failing: false, builds: 0, warnings: '' }

  async function rebuild(changed: string[]): Promise<void> {
    if (changed.some((p) => /^templates\/.*\.tsx?$/.test(p))) await builder.restart()
    const report = await builder.build(changed)
    state.builds++
    const what = changed.length ? `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}: ` : ''
    if (!report.ok) return reportProblems(report, what)
    printWarnings(report.diagnostics)
    if (report.published) state.published = new Set(report.published)
    const recovered = state.failing
    state.failing = false
    state.hasBuilt = true
    console.log(`${what}${recovered ? 'fixed, ' : ''}built in ${Math.round(report.ms)} ms (${report.rendered} page${report.rendered === 1 ? '' : 's'} rendered, ${report.changed.length} file${report.changed.length === 1 ? '' : 's'} updated${report.removed.length ? `, ${report.removed.length} removed` : ''})`)
    const styleOnly = changed.length > 0 && changed.every((p) => p.startsWith('templates/') && p.endsWith('.css'))
    if (styleOnly && !recovered) events.style(report.stylesheets)
    else if (report.changed.length > 0 || report.removed.length > 0 || recovered) events.reload()
  }

  function reportProblems(report: BuildReport, what: string): void {
    const errors = report.diagnostics.filter((d) => d.severity === 'error')
    console.error(`${what}the site has ${errors.length} error${errors.length === 1 ? '' : 's'}:`)
    for (const d of report.diagnostics) console.error(formatDiagnostic(d))
    console.error(state.hasBuilt ? 'Still serving the last good build; save a fix to rebuild.\n' : 'Nothing to serve yet; save a fix to build.\n')
    state.failing = true
    state.warnings = ''
    events.showProblems(report.diagnostics)
  }

  /** Warnings (a missing translation) are printed when they change, not on every save. */
  function printWarnings(diagnostics: Diagnostic[]): void {
    const text = diagnostics.filter((d) => d.severity === 'warning').map(formatDiagnostic).join('\n')
    if (text && text !== state.warnings) console.error(text)
    state.warnings = text
  }

  // The watcher is ready before the first build reads a source, so a save at any moment after
  // this is seen: during the first build it waits in the queue, which runs it right after.
  let firstBuild: Promise<void> | undefined
  const queue = rebuildQueue(async (changed) => { await firstBuild; await rebuild(changed) })
  const client = bundleClient()
  const watcher = await watchInThread([...SOURCES.map((folder) => ({ base: root, folder })), { base: packageDir, folder: 'templates' }], queue)
  console.log('Building the site…')
  firstBuild = rebuild([])
  await firstBuild
  const clientScript = await client
  const devHandlers: RequestHandler[] = [
    events.handle,
    async (req, res) => answer(req, res, CLIENT_PATH, 'text/javascript; charset=utf-8', clientScript),
    async (req, res) => answer(req, res, '/__clinic/status', 'application/json', JSON.stringify({ building: queue.busy(), ok: !state.failing, builds: state.builds })),
    // Before the first good build there is no site: a page that shows the errors instead.
    async (req, res) => !state.hasBuilt && answer(req, res, req.url ?? '/', 'text/html; charset=utf-8', injectDev('<!doctype html><html lang="en"><head><title>clinic-build dev</title></head><body><main><h1>The site has errors</h1><p>See the terminal.</p></main></body></html>', []), 503),
  ]
  const server = await startServer({
    dir: outDir,
    port: options.port,
    host: options.host,
    allowedHosts: options.allowedHosts,
    handlers: [...devHandlers, cmsBackend(root, (message) => console.error(`warning: ${message}`)), ...localHandlers({ root })],
    isPublished: (file) => state.published.has(file),
    cacheControl: 'no-store',
    compress: false,
    onPortTaken: (taken, next) => console.error(`Port ${taken} is taken; trying ${next}.`),
    onError: (error) => console.error(`clinic-build: Internal error: ${(error as Error).stack ?? error}`),
  })

  console.log(`Dev server at ${server.url}/  (watching ${[...SOURCES, 'templates'].join('/, ')}/; Ctrl-C stops)`)
  if (options.open) openBrowser(`${server.url}/`)

  const close = async () => {
    await watcher.close()
    events.close()
    await server.close()
    await builder.close()
  }
  stopOnSignals(async () => { await close(); console.log('Stopped.') })
  return { ...server, close, idle: queue.idle }
}

function answer(req: IncomingMessage, res: ServerResponse, path: string, type: string, body: string, status = 200): boolean {
  if (req.url?.split('?')[0] !== path.split('?')[0] || (req.method !== 'GET' && req.method !== 'HEAD')) return false
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body)
  return true
}

async function bundleClient(): Promise<string> {
  const result = await bundle({ absWorkingDir: packageDir, entryPoints: ['src/client/dev-client.ts'], bundle: true, format: 'esm', write: false, logLevel: 'silent', target: 'es2020' })
  return result.outputFiles[0]!.text
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  spawn(command, [url], { stdio: 'ignore', detached: true }).on('error', () => console.error(`Could not open a browser; visit ${url}`)).unref()
}
