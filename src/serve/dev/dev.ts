/**
 * `clinic-build dev`: builds the site into .clinic/dev, serves it, watches the sources, rebuilds
 * on every save (one rebuild at a time, changes queued) and tells the open tabs: reload, swap the
 * stylesheet, or show the errors while the last good build stays served: of the whole site, or of
 * the pages whose own files have them, while every other page is rebuilt (held-pages.ts).
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
import { BrowserEvents, type Standing } from './events.ts'
import type { HeldPage } from './held-pages.ts'
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
  const state = { published: new Set<string>(), hasBuilt: false, failing: false, held: [] as HeldPage[], builds: 0, warnings: '', heldText: '' }

  async function rebuild(changed: string[]): Promise<void> {
    if (changed.some((p) => /^templates\/.*\.tsx?$/.test(p))) await builder.restart()
    const report = await builder.build(changed)
    state.builds++
    const what = changed.length ? `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}: ` : ''
    if (!report.ok) return reportProblems(report, what)
    printWarnings(report.diagnostics)
    if (report.published) state.published = new Set(report.published)
    // A fix of the whole site, or of a held page: the tabs showing its errors reload.
    const recovered = state.failing || state.held.some((before) => !report.held.some((now) => now.file === before.file))
    state.failing = false
    state.held = report.held
    state.hasBuilt = true
    const held = report.held.length ? `; ${report.held.length} page file${report.held.length === 1 ? '' : 's'} held back` : ''
    console.log(`${what}${recovered ? 'fixed, ' : ''}built in ${Math.round(report.ms)} ms (${report.rendered} page${report.rendered === 1 ? '' : 's'} rendered, ${report.changed.length} file${report.changed.length === 1 ? '' : 's'} updated${report.removed.length ? `, ${report.removed.length} removed` : ''}${held})`)
    printHeld(report.held)
    const standing = heldProblems(report.held)
    const styleOnly = changed.length > 0 && changed.every((p) => p.startsWith('templates/') && p.endsWith('.css'))
    if (styleOnly && !recovered) events.style(report.stylesheets, standing)
    else if (report.changed.length > 0 || report.removed.length > 0 || recovered) events.reload(standing)
    else if (standing) events.showProblems(standing)
  }

  function reportProblems(report: BuildReport, what: string): void {
    const errors = report.diagnostics.filter((d) => d.severity === 'error')
    console.error(`${what}the site has ${errors.length} error${errors.length === 1 ? '' : 's'}:`)
    for (const d of report.diagnostics) console.error(formatDiagnostic(d))
    console.error(state.hasBuilt ? 'Still serving the last good build; save a fix to rebuild.\n' : 'Nothing to serve yet; save a fix to build.\n')
    state.failing = true
    state.warnings = ''
    state.heldText = ''
    events.showProblems({ problems: report.diagnostics })
  }

  /** Warnings (a missing translation) are printed when they change, not on every save. */
  function printWarnings(diagnostics: Diagnostic[]): void {
    const text = diagnostics.filter((d) => d.severity === 'warning').map(formatDiagnostic).join('\n')
    if (text && text !== state.warnings) console.error(text)
    state.warnings = text
  }

  /** The errors of the files held back, and what the visitor of their pages sees meanwhile: printed when they change. */
  function printHeld(held: HeldPage[]): void {
    const text = held.map((page) => {
      const shown = page.urls.length ? `${page.urls.join(', ')} ${page.urls.length === 1 ? 'shows its' : 'show their'} last good build` : 'it has no page'
      const why = page.breaksOthers ? `as saved, it breaks the files above; ${shown} until they or it are fixed` : `${shown} until a fix is saved`
      return [...page.diagnostics.map(formatDiagnostic), `${page.file} is held back: ${why}; every other page is rebuilt as usual.`].join('\n')
    }).join('\n')
    if (text && text !== state.heldText) console.error(`${text}\n`)
    state.heldText = text
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
    async (req, res) => answer(req, res, '/__clinic/status', 'application/json', JSON.stringify({ building: queue.busy(), ok: !state.failing && state.held.length === 0, builds: state.builds, held: state.held.map((page) => page.file) })),
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

/** The overlay's errors on the pages of the files held back; none when no file is. */
function heldProblems(held: HeldPage[]): Standing | undefined {
  if (held.length === 0) return undefined
  const pages: Record<string, Diagnostic[]> = {}
  for (const page of held) for (const url of page.urls) (pages[url] ??= []).push(...page.diagnostics)
  return { problems: [...new Set(held.flatMap((page) => page.diagnostics))], pages }
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
