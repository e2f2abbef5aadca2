/**
 * The build: read -> parse & validate -> routes -> render -> minify -> write.
 * Only the first and the last stage touch the disk (the build cache sits beside them: it is read
 * after the sources and written with the output); `write: false` keeps everything in memory.
 * Markdown bodies are parsed and pages rendered on worker threads when a site is large
 * (src/render/shards.ts), and only for the pages whose inputs changed since the last build (src/build/cache.ts).
 */
import { join } from 'node:path'
import { bundleAssets } from '../assets/bundle.ts'
import { hashOf, oncePer, oncePerKey } from '../util/memo.ts'
import { keptFiles } from '../util/kept-files.ts'
import { CACHE_DIR, codeVersion, emptyCache, fromContentsOf, loadCache, memo, saveCache, unchanged, withBody, type BuildCache, type CachedPage, type KnownDoc } from './cache.ts'
import { collect } from '../routes/collections.ts'
import { resolveFolders } from './folders.ts'
import { packageDir } from '../util/package.ts'
import { problem, whileProcessing } from '../errors.ts'
import { checkHeroImages, siteImages } from '../assets/images.ts'
import { placeholderCss } from '../assets/picture.ts'
import { contentImageClashes, internalLinks, linkChecker } from '../routes/links.ts'
import { checkTemplateKeys, loadMessages } from '../content/messages.ts'
import { bodyAfter, fileHash, headOf, parseDoc, parseDocs, splitFile, type ParsedDoc } from '../content/parse.ts'
import { readCode, readProject } from '../content/read.ts'
import type { RenderInput } from '../render/renderer.ts'
import { buildRouteTable } from '../routes/routes.ts'
import { ShardPool } from '../render/shards.ts'
import { templateVersions } from '../render/template-versions.ts'
import { localeUrl } from '../shared/urls.ts'
import { answerer, docPrint, type Read } from '../page/reads.ts'
import { parseSite } from '../content/site.ts'
import { searchFiles } from '../seo/index.ts'
import { withDeployOutputs } from '../deploy/index.ts'
import { robots, sitemap } from '../routes/sitemap.ts'
import { summarise, type Summary } from './summary.ts'
import type { BodyFacts, BodySource, Diagnostic, Doc, OutputFile, Project, Route, RouteTable, SiteConfig, SourceFile } from '../types.ts'
import { contentHash, removalsFinished, SPARE_DIR, writeSite } from './write.ts'
import { adminClashes, adminConfig } from '../admin/config.ts'
import { editorBundle } from '../admin/bundle.ts'
import { adminFiles } from '../admin/outputs.ts'
import { pageManifest, saveManifest } from './manifest.ts'
import { fingerprint, recordBuild, upToDate } from './last-build.ts'

export interface BuildOptions {
  /** The site folder holding content/, locales/ and static/. Default: the current directory. */
  root?: string
  /** The output folder. Default: dist */
  out?: string
  /** Write the output folder (default) or only return the files. */
  write?: boolean
  /** Include pages marked `draft: true` (the dev server does). */
  drafts?: boolean
  /** Show a page whose translation is missing in the other language, with a warning (the dev server does). */
  translationFallback?: boolean
  /**
   * Re-use what earlier builds derived from unchanged inputs: `true` (default when writing) keeps
   * the cache in .clinic/cache; a cache object (`emptyCache()`) keeps it in memory across calls.
   */
  cache?: boolean | BuildCache
  /** Called as pages render, for a progress indicator. */
  onProgress?: (done: number, total: number) => void
  /** Worker threads for parsing and rendering; 0 renders in this thread. Default: one per core for large sites. */
  threads?: number
  /** The sources, already read (the dev server re-reads only the files a save changed). */
  project?: Project
}

export interface BuildResult {
  ok: boolean
  diagnostics: Diagnostic[]
  table?: RouteTable
  /**
   * Every generated file (static/ files are copied as they are and not listed; images under
   * content/ are listed); none when `upToDate`.
   */
  files: OutputFile[]
  summary?: Summary
  /** Wall-clock milliseconds per stage, and `total`. */
  timings: Record<string, number>
  /** CPU milliseconds spent parsing, rendering and minifying, summed over all threads. */
  work?: { parse: number; render: number; minify: number; threads: number }
  /** Pages whose HTML came from the build cache, and pages rendered. */
  pages?: { reused: number; rendered: number }
  /**
   * The inputs were those of the last build into this output folder, which is as that build left
   * it: nothing was done, and the report is that build's (src/build/last-build.ts).
   */
  upToDate?: boolean
}

export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now()
  const timings: Record<string, number> = {}
  const timed = async <T>(stage: string, run: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now()
    try { return await run() } finally { timings[stage] = (timings[stage] ?? 0) + performance.now() - t0 }
  }
  const diagnostics: Diagnostic[] = []
  const failed = () => diagnostics.some((d) => d.severity === 'error')
  const stop = (): BuildResult => ({ ok: false, diagnostics, files: [], timings })

  const folders = resolveFolders(options)
  const project = options.project ?? await timed('read', () => readProject(folders.root, packageDir))
  if (project.siteFile.problem?.code === 'MissingFile') return { ...stop(), diagnostics: [project.siteFile.problem] }
  diagnostics.push(...project.problems, ...[...project.templateFiles, ...project.styleFiles].flatMap((f) => f.problem ?? []))
  const persistent = options.cache ?? options.write !== false
  // Templates are not part of it: each page's key carries its own template's version.
  const code = persistent === true ? codeVersion(await readCode(packageDir)) : ''
  const cacheDir = join(folders.root, CACHE_DIR)
  const inputs = persistent === true && options.write !== false ? fingerprint(code, [folders.out, options.drafts ?? false, options.translationFallback ?? false], project, textHash) : undefined
  const last = inputs === undefined ? undefined : await timed('read', () => upToDate(cacheDir, inputs, folders.out))
  if (last) {
    timings.total = performance.now() - started
    return { ok: true, diagnostics: last.diagnostics, files: [], summary: last.summary, timings, pages: { reused: last.pages, rendered: 0 }, upToDate: true }
  }
  const cache = typeof persistent === 'object' ? persistent : persistent ? await timed('read', () => loadCache(folders.root, code)) : emptyCache()
  const next: BuildCache = { ...emptyCache(), steps: cache.steps }
  const remember = <T>(step: string, inputs: unknown[], run: () => T) => memo(cache, step, inputs, run)
  const kept = keptFiles(persistent === true ? join(folders.root, CACHE_DIR, 'files') : undefined)

  // The site configuration's and the messages' results are kept between builds: a build whose
  // sources are all cached then loads neither yaml nor zod (about 0.1 s).
  const { site, diagnostics: siteProblems } = await remember('site', [textHash(project.siteFile)],
    () => kept(`site-${hashOf(code, textHash(project.siteFile))}`, () => parseSite(project.siteFile)))
  diagnostics.push(...siteProblems)
  if (!site) return stop()
  // The content editor's bundle depends on clinic-build alone: made once, then read (src/admin/bundle.ts).
  // Kept as a file like the site configuration's: made from the schemas, it would load zod.
  const admin = await remember('admin config', [site], () => kept(`admin-${hashOf(code, textHash(project.siteFile))}`, () => adminConfig(site)))
  // A save under `clinic-build dev` keeps the templates (a template edit starts a fresh worker): nothing to redo.
  const editorReady = admin ? remember('editor bundle', project.templateFiles, () => editorBundle(packageDir)) : undefined
  editorReady?.catch(() => {}) // awaited below, unless the content fails first

  const pool = new ShardPool(options.threads)
  try {
    // Work that does not wait for the front matter starts first, to fill the cores while this
    // thread reads it: the image pipeline, and the shards parsing the bodies of new and changed files.
    const imagesReady = remember('images', [folders.root, JSON.stringify(project.staticVersions), JSON.stringify(project.contentImageVersions)],
      () => siteImages(folders.root, project, kept))
    imagesReady.catch(() => {}) // awaited below, unless the content fails first
    const bodiesParsed = pool.analyse(project.content.filter((f) => !factsCached(f, cache)).map((f) => bodyOf(f, cache)))
    bodiesParsed.catch(() => {})
    const parsed = await timed('parse', async () => {
      const { messages, diagnostics: messageProblems } = await remember('messages', [site, ...project.localeFiles.map(textHash)],
        () => kept(`messages-${hashOf(code, textHash(project.siteFile), ...project.localeFiles.flatMap((f) => [f.path, textHash(f)]))}`, () => loadMessages(project.localeFiles, site)))
      const { docs, unreadable, diagnostics: docProblems } = parseDocs(project.content, site, (file, site) => whileProcessing(file.path, () => parseKnown(file, site, textHash(project.siteFile), cache, next)))
      diagnostics.push(...messageProblems, ...docProblems, ...checkTemplateKeys(project.templateFiles, messages))
      return { messages, unreadable, docs: options.drafts ? docs : docs.filter((d) => !d.data.draft) }
    })
    const byId = new Map(parsed.docs.map((d) => [d.id, d]))
    const facts = await timed('parse', () => factsOfBodies(parsed.docs, cache, next, bodiesParsed))
    for (const doc of parsed.docs) {
      // Most bodies have none: a spread call for each of thousands of files cost a dev rebuild 1.6 ms.
      const found = facts.get(doc.id)!.diagnostics
      if (found.length > 0) diagnostics.push(...found)
    }

    const locales = site.locales.map((l) => l.code)
    const links = new Map(parsed.docs.map((d) => [d.id, linksOf(facts.get(d.id)!)]))
    // Collections and routes show places and front matter only: a body edit keeps them (and so
    // the answers pages read from them) as they were, Docs with the old body text included.
    const collections = remember('collect', [locales.join(), ...parsed.docs.map(docPrint), ...[...links.values()].map(linkText)], () => collect(parsed.docs, locales, links))
    const { table, diagnostics: routeProblems } = remember('routes', [site, collections, JSON.stringify(parsed.unreadable), options.translationFallback],
      () => buildRouteTable(parsed.docs, site, collections, parsed.unreadable, { translationFallback: options.translationFallback }))
    const unreadableUrls = parsed.unreadable.map((p) => localeUrl(p.locale, p.path, site.defaultLocale))
    const [staticList, contentImageList] = [project.staticFiles.join('\n'), project.contentImages.join('\n')]
    const checkLinks = remember('links', [table, staticList, contentImageList, unreadableUrls.join('\n')], () => linkChecker(table, project.staticFiles, unreadableUrls, project.contentImages))
    const clashes = remember('image urls', [table, staticList, contentImageList], () => contentImageClashes(project.contentImages, project.staticFiles, table))
    diagnostics.push(...routeProblems, ...clashes, ...parsed.docs.flatMap((doc) => checkLinks(doc, facts.get(doc.id))))
    if (admin) diagnostics.push(...adminClashes(table, project.content))
    if (failed()) return stop()

    const pictures = await timed('images', () => imagesReady)
    diagnostics.push(...pictures.diagnostics, ...checkHeroImages(parsed.docs, pictures.images))
    if (failed()) return stop()
    const generatedCss = placeholderCss(pictures.images)
    const bundled = await timed('bundle', () => remember('bundle', [generatedCss, ...project.styleFiles.map((f) => f.text)],
      () => kept(`bundle-${hashOf(code, generatedCss)}`, () => bundleAssets(packageDir, generatedCss))))
    const input: RenderInput = {
      site, messages: parsed.messages, routes: table.routes, assets: bundled.assets, images: pictures.images,
      docs: parsed.docs.map(withoutBody), links: [...links],
    }
    // What every page may show besides its own Doc and what it reads of others and of the
    // locales' messages (src/page/reads.ts).
    const shared = hashOf(code, project.siteFile.text, JSON.stringify([bundled.assets, pictures.images]))
    const templateVersion = remember('template versions', project.templateFiles, () => templateVersions(project.templateFiles))
    // The same string for every page of a template, from one build to the next: pageKey compares it by identity.
    const sharedFor = remember('shared per template', [shared, templateVersion], () => oncePerKey((template) => `${shared} ${templateVersion(template)}`))
    const answer = remember('answers', [collections, table, parsed.messages], () => answerer(collections, table, parsed.messages))
    const html = new Map<string, { html: string; hash: string }>()
    const keys = new Map<Route, string>()
    const stale: Route[] = []
    for (const route of table.routes) {
      const key = pageKey(route, sharedFor(route.template), byId.get(route.docId!)?.hash ?? '-')
      keys.set(route, key)
      const cached = cache.pages.get(key)
      if (cached && stillValid(cached, answer)) {
        html.set(route.output, cached)
        next.pages.set(key, cached)
      } else stale.push(route)
    }
    const rendered = await timed('render', () => pool.render(input, { collections, table }, stale, (id) => byId.get(id)!,
      (done) => options.onProgress?.(html.size + done, table.routes.length)))
    const routeOf = new Map(stale.map((r) => [r.output, r]))
    for (const page of rendered) {
      const route = routeOf.get(page.path)!
      for (const key of page.missingMessages) {
        diagnostics.push(problem('UnknownMessage', [key], { file: `templates (${route.template}, rendering ${route.url})` }))
      }
      const made = { html: page.html, hash: contentHash(page.html) }
      html.set(page.path, made)
      next.pages.set(keys.get(route)!, { ...made, reads: page.reads.map((read) => [read, answer(read)]) })
    }
    if (failed()) return stop()

    // A page's HTML is read when written or derived from (fromContents): one re-used from the cache is never decoded.
    const pages = table.routes.map((r): OutputFile => {
      const page = html.get(r.output)!
      return { path: r.output, get contents() { return page.html }, version: page.hash }
    })
    const fromContents = fromContentsOf(cache, next)
    const search = await timed('search', () => searchFiles(table, collections, site, parsed.messages, remember, answer, kept))
    // The editor's preview data shows every Doc but their bodies: a body edit keeps it, like the collections.
    const editor = admin ? [await timed('admin', async () => {
      const bundle = await editorReady!
      return remember('admin files', [site, admin, collections, parsed.messages, bundled.assets, pictures.images, bundle], () => adminFiles(site, admin, input, bundle))
    })] : []
    const files = withDeployOutputs([...pages, ...bundled.files, ...pictures.files, remember('sitemap', [table, site], () => sitemap(table, site)), robots(site), ...search], table, site, { remember, fromContents, folders: editor })
    const summary = summarise(table, files, diagnostics, bundled.assets, fromContents)
    next.output = options.write === false ? cache.output : await timed('write', () => writeSite(folders.out, files, staticDir(project), cache.output, JSON.stringify(project.staticVersions),
      persistent === true ? join(folders.root, SPARE_DIR) : undefined))
    if (next.output) saveManifest(folders.root, folders.out, pageManifest(table, next.output, bundled.assets))
    if (persistent === true && !unchanged(cache, next)) await timed('cache', () => saveCache(folders.root, code, next))
    else if (typeof persistent === 'object') Object.assign(persistent, next)
    await kept.save()
    await timed('write', removalsFinished)
    if (inputs !== undefined && next.output) await recordBuild(cacheDir, inputs, next.output, project.staticFiles, { diagnostics, summary, pages: table.routes.length })
    timings.total = performance.now() - started
    return {
      ok: true, diagnostics, table, files, summary, timings,
      work: { ...await pool.times(), threads: pool.size },
      pages: { reused: table.routes.length - stale.length, rendered: stale.length },
    }
  } finally {
    await pool.close()
  }
}

/** Facts of every body: from the cache when the file is unchanged, else as the shards found them. */
async function factsOfBodies(docs: Doc[], cache: BuildCache, next: BuildCache, parsed: Promise<Map<string, BodyFacts>>): Promise<Map<string, BodyFacts>> {
  const found = await parsed
  const facts = new Map(docs.map((doc) => [doc.id, cache.facts.get(keyOf(doc)) ?? found.get(doc.id)!]))
  for (const doc of docs) next.facts.set(keyOf(doc), facts.get(doc.id)!)
  return facts
}

/** The key of a route's page in the cache: what it shows besides what it reads (src/page/reads.ts). */
function pageKey(route: Route, shared: string, docHash: string): string {
  const last = pageKeys.get(route)
  if (last?.shared === shared && last.docHash === docHash) return last.key
  const key = `${shared} ${docHash} ${JSON.stringify(route)}`
  pageKeys.set(route, { shared, docHash, key })
  return key
}
const pageKeys = new WeakMap<Route, { shared: string; docHash: string; key: string }>()

/** A cached page whose reads all get the answers they got; checked once per answerer (the dev server's builds mostly share one). */
function stillValid(page: CachedPage, answer: (read: Read) => string): boolean {
  if (validWith.get(page) === answer) return true
  const valid = page.reads.every(([read, answered]) => answer(read) === answered)
  if (valid) validWith.set(page, answer)
  return valid
}
const validWith = new WeakMap<CachedPage, (read: Read) => string>()

// Derived once per object, so that the steps after them see that nothing changed.
const withoutBody = oncePer((doc: Doc): Doc => ({ ...doc, markdown: '', hash: '' }))
const linksOf = oncePer((facts: BodyFacts) => internalLinks(facts))
const linkText = oncePer((links: string[]) => links.join(' '))
/** A source's identity for the caches: its text, and why it could not be read (its text is then ''). */
const textHash = oncePer((file: SourceFile) => hashOf(file.text, file.problem?.message ?? ''))
const keyOf = oncePer((doc: Doc) => `${doc.id} ${doc.hash}`)
/** Whether the cache holds the facts of a content file's body, known before its front matter is read. */
function factsCached(file: SourceFile, cache: BuildCache): boolean {
  const known = cache.docs.get(file.path)
  return known?.text === textHash(file) && known.result.doc !== undefined && cache.facts.has(keyOf(known.result.doc))
}

/**
 * A content file's Doc, from the cache when neither the file nor the site configuration changed,
 * or with its new body when only the body did (its front matter, so its data, is the same).
 */
function parseKnown(file: SourceFile, site: SiteConfig, siteHash: string, cache: BuildCache, next: BuildCache): ParsedDoc {
  const text = textHash(file)
  const known = cache.docs.get(file.path)
  const entry = known?.site !== siteHash ? parsed(file, site, text, siteHash)
    : known.text === text ? withBody(file, known) ?? parsed(file, site, text, siteHash)
      : bodyEdited(file, known, text) ?? parsed(file, site, text, siteHash)
  next.docs.set(file.path, entry)
  return entry.result
}

function parsed(file: SourceFile, site: SiteConfig, text: string, siteHash: string): KnownDoc {
  const result = parseDoc(file, site)
  return { text, site: siteHash, result, ...(result.doc ? { head: headOf(file) } : {}) }
}

/** The cached Doc with the file's new body, when its front matter block is the one cached. */
function bodyEdited(file: SourceFile, known: KnownDoc, text: string): KnownDoc | undefined {
  const doc = known.result.doc
  const body = doc && known.head !== undefined ? bodyAfter(file, known.head) : undefined
  return doc && body ? { ...known, text, result: { ...known.result, doc: { ...doc, ...body, hash: fileHash(file) } } } : undefined
}

/** A content file's body: split after its front matter block as the cache knows it, when that is unchanged. */
function bodyOf(file: SourceFile, cache: BuildCache): BodySource {
  const head = cache.docs.get(file.path)?.head
  return (head !== undefined && bodyAfter(file, head)) || splitFile(file).body
}


const staticDir = (project: Project) => (project.staticFiles.length ? join(project.root, 'static') : undefined)
