/**
 * The build: read -> parse & validate -> routes -> render -> minify -> write.
 * Only the first and the last stage touch the disk (the build cache sits beside them: it is read
 * after the sources and written with the output); `write: false` keeps everything in memory.
 */
import { join } from 'node:path'
import { bundleAssets } from './assets.ts'
import { fingerprint, readCache, writeCache } from './cache.ts'
import { collect } from './collections.ts'
import { packageDir, resolveFolders } from './config.ts'
import { problem } from './errors.ts'
import { checkLinks } from './links.ts'
import { checkTemplateKeys, loadMessages } from './messages.ts'
import { minifyHtml } from './minify.ts'
import { parseDocs } from './parse.ts'
import { readCode, readProject } from './read.ts'
import { renderRoute } from './render.tsx'
import { buildRouteTable } from './routes.ts'
import { localeUrl } from './shared/urls.ts'
import { parseSite } from './site.ts'
import { robots, sitemap } from './sitemap.ts'
import { summarise, type Summary } from './summary.ts'
import type { Diagnostic, OutputFile, Project, RouteTable } from './types.ts'
import { writeSite } from './write.ts'

export interface BuildOptions {
  /** The site folder holding content/, locales/ and static/. Default: the current directory. */
  root?: string
  /** The output folder. Default: dist */
  out?: string
  /** Write the output folder (default) or only return the files. */
  write?: boolean
  /** Include pages marked `draft: true` (the dev server does). */
  drafts?: boolean
  /** Re-use the outputs of an earlier build of identical inputs (default true when writing). */
  cache?: boolean
  /** Called as pages render, for a progress indicator. */
  onProgress?: (done: number, total: number) => void
}

export interface BuildResult {
  ok: boolean
  diagnostics: Diagnostic[]
  table?: RouteTable
  /** Every generated file (static/ files are copied as they are and not listed). */
  files: OutputFile[]
  summary?: Summary
  /** Milliseconds per stage. */
  timings: Record<string, number>
  /** True when the outputs came from the build cache. */
  cached?: boolean
}

export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now()
  const timings: Record<string, number> = {}
  const timed = async <T>(stage: string, run: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now()
    try { return await run() } finally { timings[stage] = performance.now() - t0 }
  }
  const diagnostics: Diagnostic[] = []
  const failed = () => diagnostics.some((d) => d.severity === 'error')
  const stop = (): BuildResult => ({ ok: false, diagnostics, files: [], timings })

  const folders = resolveFolders(options)
  const project = await timed('read', () => readProject(folders.root, packageDir))
  if (!project.siteFile.text) return { ...stop(), diagnostics: [problem('MissingFile', ['The site configuration content/site.yaml'], { file: 'content/site.yaml' })] }

  const useCache = options.write !== false && options.cache !== false
  const key = useCache ? fingerprint(project, await readCode(packageDir), { drafts: Boolean(options.drafts) }) : ''
  const cached = useCache ? await readCache<Cached>(folders.root, key) : undefined
  if (cached) {
    await timed('write', () => writeSite(folders.out, cached.files, staticDir(project)))
    timings.total = performance.now() - started
    return { ok: true, diagnostics: cached.diagnostics, table: cached.table, files: cached.files, summary: cached.summary, timings, cached: true }
  }

  const { site, diagnostics: siteProblems } = parseSite(project.siteFile)
  diagnostics.push(...siteProblems)
  if (!site) return stop()

  const parsed = await timed('parse', () => {
    const { messages, diagnostics: messageProblems } = loadMessages(project.localeFiles, site)
    const { docs, unreadable, diagnostics: docProblems } = parseDocs(project.content, site)
    diagnostics.push(...messageProblems, ...docProblems, ...checkTemplateKeys(project.templateFiles, messages))
    return { messages, unreadable, docs: options.drafts ? docs : docs.filter((d) => !d.data.draft) }
  })
  const locales = site.locales.map((l) => l.code)
  const collections = collect(parsed.docs, locales)
  const { table, diagnostics: routeProblems } = buildRouteTable(parsed.docs, site, collections, parsed.unreadable)
  const unreadableUrls = parsed.unreadable.map((p) => localeUrl(p.locale, p.path, site.defaultLocale))
  diagnostics.push(...routeProblems, ...checkLinks(parsed.docs, table, project.staticFiles, unreadableUrls))
  if (failed()) return stop()

  const bundled = await timed('bundle', () => bundleAssets(packageDir))
  const html = await timed('render', () => {
    const ctx = {
      site, messages: parsed.messages, table, collections, assets: bundled.assets,
      onMissingMessage: (key: string, route: { url: string; template: string }) => diagnostics.push(
        problem('UnknownMessage', [key], { file: `templates (${route.template}, rendering ${route.url})` })),
    }
    return table.routes.map((route, i) => {
      options.onProgress?.(i + 1, table.routes.length)
      return renderRoute(route, ctx)
    })
  })
  if (failed()) return stop()

  const minified = await timed('minify', () => Promise.all(html.map(async (f) => ({ path: f.path, contents: await minifyHtml(f.contents as string) }))))
  const files = [...minified, ...bundled.files, sitemap(table, site), robots(site)]
  const summary = summarise(table, files, diagnostics)
  if (options.write !== false) {
    await timed('write', () => writeSite(folders.out, files, staticDir(project)))
    if (useCache) await writeCache(folders.root, key, { files, diagnostics, table, summary } satisfies Cached)
  }
  timings.total = performance.now() - started
  return { ok: true, diagnostics, table, files, summary, timings, cached: false }
}

interface Cached { files: OutputFile[]; diagnostics: Diagnostic[]; table: RouteTable; summary: Summary }

const staticDir = (project: Project) => (project.staticFiles.length ? join(project.root, 'static') : undefined)

