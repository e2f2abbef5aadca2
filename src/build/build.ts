/**
 * The build: read -> parse & validate -> routes -> render -> minify -> write.
 * Only the first and the last stage touch the disk (the build cache sits beside them: it is read
 * after the sources and written with the output); `write: false` keeps everything in memory.
 * Markdown bodies are parsed and pages rendered on worker threads when a site is large
 * (src/render/shards.ts), and only for the pages whose inputs changed since the last build (src/build/cache.ts).
 */
import { join } from 'node:path'
import { serialize } from 'node:v8'
import { bundleAssets } from '../assets/bundle.ts'
import { hashOf, oncePerKey } from '../util/memo.ts'
import { keptFiles } from '../util/kept-files.ts'
import { CACHE_DIR, codeVersion, emptyCache, fromContentsOf, keptPage, loadCache, memo, saveCache, unchanged, type BuildCache } from './cache.ts'
import { segmentWriter } from './page-store.ts'
import { factsCached, bodyOf, keyOf, linksOf, linkText, parseKnown, textHash, withoutBody } from './known-docs.ts'
import { pageKey, stillValid } from './page-keys.ts'
import { builtFor, imageText, keepBuilt, optionsKey, rebuildBodies, type Problems } from './body-edits.ts'
import type { BuildOptions, BuildResult } from './contract.ts'
import { collect } from '../routes/collections.ts'
import { resolveFolders } from './folders.ts'
import { packageDir } from '../util/package.ts'
import { problem, whileProcessing } from '../errors.ts'
import { checkHeroImages, siteImages } from '../assets/images.ts'
import { placeholderCss } from '../assets/picture.ts'
import { contentImageClashes, linkChecker, occupantOf } from '../routes/links.ts'
import { checkTemplateKeys, loadMessages } from '../content/messages.ts'
import { parseDocs } from '../content/parse.ts'
import { readCode, readProject } from '../content/read.ts'
import type { RenderedPage, RenderInput } from '../render/renderer.ts'
import { buildRouteTable } from '../routes/routes.ts'
import { ShardPool } from '../render/shards.ts'
import { templateVersions } from '../render/template-versions.ts'
import { localeUrl } from '../shared/urls.ts'
import { answerer, docPrint, type Read } from '../page/reads.ts'
import { parseSite } from '../content/site.ts'
import { searchFiles } from '../seo/index.ts'
import { deploySite } from '../deploy/index.ts'
import { robots, sitemap } from '../routes/sitemap.ts'
import { summarise } from './summary.ts'
import type { BodyFacts, Diagnostic, Doc, OutputFile, Project, Route } from '../types.ts'
import { contentHash, recoverStopped, removalsFinished, SPARE_DIR, spareFolder, staticOutputs, writeSite } from './write.ts'
import { adminClashes, adminConfig } from '../admin/config.ts'
import { editorBundle } from '../admin/bundle.ts'
import { adminFiles } from '../admin/outputs.ts'
import { pageManifest, saveManifest } from './manifest.ts'
import { fingerprint, lastBuild, recordBuild, surroundings, upToDate } from './last-build.ts'
import { keepWrittenSite, patchWrittenSite, recording, type KeptDoc } from './written-site.ts'

export type { BuildOptions, BuildResult } from './contract.ts'

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
  // A patch's own stages follow the ones this build ran before it (the read), and its total counts from here.
  const sinceStart = (patched: BuildResult): BuildResult => ({ ...patched, timings: { ...timings, ...patched.timings, total: performance.now() - started } })

  const folders = resolveFolders(options)
  // Before the output folder is compared with the last build's: a build stopped mid-swap took it away.
  if (options.write !== false) recoverStopped(folders.out)
  const project = options.project ?? await timed('read', () => readProject(folders.root, packageDir))
  if (project.siteFile.problem?.code === 'MissingFile') return { ...stop(), diagnostics: [project.siteFile.problem] }
  const persistent = options.cache ?? options.write !== false
  // A save that changed Markdown bodies alone patches the last build kept in memory (the dev server's).
  if (typeof persistent === 'object') {
    const built = builtFor(persistent)
    const patched = built && await rebuildBodies(built, project, persistent, options)
    if (patched) return sinceStart(patched)
  }
  diagnostics.push(...project.problems, ...[...project.templateFiles, ...project.styleFiles].flatMap((f) => f.problem ?? []))
  // Templates are not part of it: each page's key carries its own template's version.
  const code = persistent === true ? codeVersion(await readCode(packageDir)) : ''
  const cacheDir = join(folders.root, CACHE_DIR)
  const optionsRead = [folders.out, options.drafts ?? false, options.translationFallback ?? false]
  const inputs = persistent === true && options.write !== false ? fingerprint(code, optionsRead, project, textHash) : undefined
  const record = inputs === undefined ? undefined : await timed('read', () => lastBuild(cacheDir))
  const last = inputs === undefined ? undefined : await timed('read', () => upToDate(record, inputs, folders.out))
  if (last) {
    timings.total = performance.now() - started
    return { ok: true, diagnostics: last.diagnostics, files: [], summary: last.summary, timings, pages: { reused: last.pages, rendered: 0 }, upToDate: true }
  }
  // Computed once something changed: the build with nothing changed is the one that must be quick.
  const aroundContent = inputs === undefined ? '' : surroundings(code, optionsRead, project, textHash)
  if (inputs !== undefined) {
    // Markdown bodies alone changed since the last build wrote the folder: its pages of them are replaced.
    const patched = await patchWrittenSite({ cacheDir, root: folders.root, out: folders.out, project, last: record, inputs, surroundings: aroundContent, threads: options.threads })
    if (patched) return sinceStart(patched)
  }
  const cache = typeof persistent === 'object' ? persistent : persistent ? await timed('read', () => loadCache(folders.root, code)) : emptyCache()
  // A build that writes will write into the spare folder: surveyed on another thread meanwhile
  // (once the cache is read, whose garbage collection takes the other core's time).
  const spare = persistent === true && options.write !== false ? spareFolder(join(folders.root, SPARE_DIR), cache.output) : undefined
  const next: BuildCache = { ...emptyCache(), steps: cache.steps }
  const remember = <T>(step: string, inputs: unknown[], run: () => T) => memo(cache, step, inputs, run)
  const kept = keptFiles(persistent === true ? join(folders.root, CACHE_DIR, 'files') : undefined, code)

  // The site configuration's and the messages' results are kept between builds: a build whose
  // sources are all cached then loads neither yaml nor zod (about 0.1 s).
  const { site, diagnostics: siteProblems } = await remember('site', [textHash(project.siteFile)],
    () => kept(`site-${textHash(project.siteFile)}`, () => parseSite(project.siteFile)))
  diagnostics.push(...siteProblems)
  if (!site) return stop()
  // The content editor's bundle depends on clinic-build alone: made once, then read (src/admin/bundle.ts).
  // Kept as a file like the site configuration's: made from the schemas, it would load zod.
  const admin = await remember('admin config', [site], () => kept(`admin-${textHash(project.siteFile)}`, () => adminConfig(site)))
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
    const bodiesParsed = pool.analyse(project.content.filter((f) => !factsCached(f, cache)).map((f) => bodyOf(f, cache)), { timeLimit: site.bodyTimeLimit })
    bodiesParsed.catch(() => {})
    const parsed = await timed('parse', async () => {
      const { messages, diagnostics: messageProblems } = await remember('messages', [site, ...project.localeFiles.map(textHash)],
        () => kept(`messages-${hashOf(textHash(project.siteFile), ...project.localeFiles.flatMap((f) => [f.path, textHash(f)]))}`, () => loadMessages(project.localeFiles, site)))
      const { docs, unreadable, diagnostics: docProblems } = parseDocs(project.content, site, (file, site) => whileProcessing(file.path, () => parseKnown(file, site, textHash(project.siteFile), cache, next)))
      diagnostics.push(...messageProblems, ...docProblems, ...checkTemplateKeys(project.templateFiles, messages))
      return { messages, unreadable, docs: options.drafts ? docs : docs.filter((d) => !d.data.draft) }
    })
    const byId = new Map(parsed.docs.map((d) => [d.id, d]))
    const facts = await timed('parse', () => factsOfBodies(parsed.docs, cache, next, bodiesParsed))
    const parseProblems = diagnostics.length
    // Most bodies have none: a spread call for each of thousands of files cost a dev rebuild 1.6 ms.
    const bodyProblems = byDoc(parsed.docs, (doc) => facts.get(doc.id)!.diagnostics)
    for (const found of bodyProblems.values()) diagnostics.push(...found)

    const locales = site.locales.map((l) => l.code)
    const links = new Map(parsed.docs.map((d) => [d.id, linksOf(facts.get(d.id)!)]))
    // Collections and routes show places and front matter only: a body edit keeps them (and so
    // the answers pages read from them) as they were, Docs with the old body text included.
    const collectInputs = [locales.join(), ...parsed.docs.map(docPrint), ...[...links.values()].map(linkText)]
    const collections = remember('collect', collectInputs, () => collect(parsed.docs, locales, links))
    const { table, diagnostics: routeProblems } = remember('routes', [site, collections, JSON.stringify(parsed.unreadable), options.translationFallback],
      () => buildRouteTable(parsed.docs, site, collections, parsed.unreadable, { translationFallback: options.translationFallback }))
    const unreadableUrls = parsed.unreadable.map((p) => localeUrl(p.locale, p.path, site.defaultLocale))
    const [staticList, contentImageList] = [project.staticFiles.join('\n'), project.contentImages.join('\n')]
    const checkLinks = remember('links', [table, staticList, contentImageList, unreadableUrls.join('\n')], () => linkChecker(table, project.staticFiles, unreadableUrls, project.contentImages))
    const clashes = remember('image urls', [table, staticList, contentImageList], () => contentImageClashes(project.contentImages, project.staticFiles, table))
    const placeProblems = [...routeProblems, ...clashes]
    const linkProblems = byDoc(parsed.docs, (doc) => checkLinks(doc, facts.get(doc.id)))
    diagnostics.push(...placeProblems)
    for (const found of linkProblems.values()) diagnostics.push(...found)
    const siteProblemsAt = diagnostics.length
    if (admin) diagnostics.push(...adminClashes(table, project.content))
    if (failed()) return stop()

    const pictures = await timed('images', () => imagesReady)
    diagnostics.push(...pictures.diagnostics, ...checkHeroImages(parsed.docs, pictures.images))
    const renderProblemsAt = diagnostics.length
    if (failed()) return stop()
    const generatedCss = placeholderCss(pictures.images)
    const bundled = await timed('bundle', () => remember('bundle', [generatedCss, ...project.styleFiles.map((f) => f.text)],
      () => kept(`bundle-${hashOf(generatedCss)}`, () => bundleAssets(packageDir, generatedCss))))
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
    // The inputs of the collections, the route table and the messages, which answer every read.
    const answers = next.answers = hashOf(...collectInputs, textHash(project.siteFile), ...project.localeFiles.flatMap((f) => [f.path, textHash(f)]),
      JSON.stringify(parsed.unreadable), String(options.translationFallback ?? false))
    const answersAsBefore = cache.answers === next.answers
    const html = new Map<string, { html: string; hash: string }>()
    const keys = new Map<Route, string>()
    const stale: Route[] = []
    for (const route of table.routes) {
      const key = pageKey(route, sharedFor(route.template), byId.get(route.docId!)?.hash ?? '-')
      keys.set(route, key)
      const cached = cache.pages.get(key)
      if (cached && (answersAsBefore || stillValid(cached, answer))) {
        html.set(route.output, cached)
        next.pages.set(key, cached)
      } else stale.push(route)
    }
    // A build that keeps its cache on disk stores each page there as it comes and holds none of
    // their HTML; one in memory (the dev server's, the tests') keeps it as it is.
    const writer = persistent === true ? segmentWriter(cacheDir) : undefined
    const routeOf = new Map(stale.map((r) => [r.output, r]))
    const renderProblems = new Map<string, Diagnostic[]>()
    const take = (rendered: RenderedPage[]) => {
      for (const page of rendered) {
        const route = routeOf.get(page.path)!
        const problems = page.missingMessages.map((key) => problem('UnknownMessage', [key], { file: `templates (${route.template}, rendering ${route.url})` }))
        if (page.refusal) problems.unshift(page.refusal)
        if (problems.length > 0) renderProblems.set(page.path, problems)
        const reads = page.reads.map((read): [Read, string] => [read, answer(read)])
        const made = writer ? keptPage(writer, page.html, reads) : { html: page.html, hash: contentHash(page.html), reads }
        html.set(page.path, made)
        next.pages.set(keys.get(route)!, made)
      }
      options.onProgress?.(html.size, table.routes.length)
    }
    await timed('render', () => pool.render(input, { collections, table }, stale, (id) => byId.get(id)!, take))
    // In the order of the routes, whichever thread rendered them first.
    for (const route of stale) diagnostics.push(...renderProblems.get(route.output) ?? [])
    // The workers hold their share of the site: they go before the pages are written.
    const work = { ...await pool.times(), threads: pool.size }
    await pool.close()
    if (failed()) return stop()

    // A page's HTML is read when written or derived from (fromContents): one re-used from the cache is never decoded.
    const pages = table.routes.map((r): OutputFile => {
      const page = html.get(r.output)!
      return { path: r.output, get contents() { return page.html }, version: page.hash }
    })
    const fromContents = fromContentsOf(cache.derived, next.derived)
    const search = await timed('search', () => searchFiles(table, collections, site, parsed.messages, remember, answer, kept))
    // The editor's preview data shows every Doc but their bodies: a body edit keeps it, like the collections.
    const editor = admin ? [await timed('admin', async () => {
      const bundle = await editorReady!
      // The preview's inputs are the answers' (the Docs' front matter and links, the messages) and the shared ones (the assets, the images).
      const previewVersion = hashOf(answers, shared)
      return remember('admin files', [site, admin, collections, parsed.messages, bundled.assets, pictures.images, bundle], () => adminFiles(site, admin, input, bundle, previewVersion))
    })] : []
    const deployed = deploySite([...pages, ...bundled.files, ...pictures.files, remember('sitemap', [table, site], () => sitemap(table, site)), robots(site), ...search], table, site, { remember, fromContents, folders: editor })
    const { files } = deployed
    const { statics, replaced } = staticFiles(project, files)
    diagnostics.push(...replaced)
    const summaryFacts = new Map<string, unknown>()
    const summary = summarise(table, files, diagnostics, bundled.assets, recording(fromContents, summaryFacts))
    next.output = options.write === false ? cache.output : await timed('write', () => writeSite(folders.out, [...statics, ...files], cache.output, spare))
    if (next.output) saveManifest(folders.root, folders.out, pageManifest(table, next.output, bundled.assets))
    const problems: Problems = {
      before: diagnostics.slice(0, parseProblems), bodies: bodyProblems, places: placeProblems, links: linkProblems,
      after: diagnostics.slice(siteProblemsAt, renderProblemsAt), statics: replaced,
    }
    const routesOf = placesOf(table.routes)
    if (persistent === true && !unchanged(cache, next)) await timed('cache', () => saveCache(folders.root, code, next, cache, performance.timeOrigin + started))
    else if (typeof persistent === 'object') {
      Object.assign(persistent, next)
      keepBuilt(persistent, options.write === false ? {
        project, options: optionsKey(options), docs: byId, routesOf, checkLinks, diagnostics: problems,
        input, derived: { collections, table }, answer, sharedFor, keys: table.routes.map((r) => keys.get(r)!), pages, files,
        redeploy: deployed.redeploy, assets: bundled.assets, fromContents,
      } : undefined)
    }
    await kept.save()
    await timed('write', removalsFinished)
    if (inputs !== undefined && next.output) {
      recordBuild(cacheDir, inputs, next.output.files, { diagnostics, summary, pages: table.routes.length })
      const docs = parsed.docs.map((doc): [string, KeptDoc] => [doc.id, {
        head: next.docs.get(doc.id)!.head!, links: linkText(links.get(doc.id)!), images: imageText(facts.get(doc.id)!), routes: routesOf.get(doc.id) ?? [],
      }])
      await timed('cache', () => keepWrittenSite(cacheDir, {
        surroundings: aroundContent, docs: new Map(docs), input: serialize(input), unreadable: unreadableUrls, meta: deployed.meta,
        state: { inputs, sources: new Map(project.content.map((f) => [f.path, textHash(f)])), problems, facts: summaryFacts },
      }))
    }
    timings.total = performance.now() - started
    return {
      ok: true, diagnostics, table, files, summary, timings,
      work,
      pages: { reused: table.routes.length - stale.length, rendered: stale.length },
    }
  } finally {
    await pool.close()
  }
}

/** What `find` finds for each Doc that has something, in the Docs' order. */
function byDoc(docs: Doc[], find: (doc: Doc) => Diagnostic[]): Map<string, Diagnostic[]> {
  const found = new Map<string, Diagnostic[]>()
  for (const doc of docs) {
    const some = find(doc)
    if (some.length > 0) found.set(doc.id, some)
  }
  return found
}

/** The places of each Doc's routes in the table. */
function placesOf(routes: Route[]): Map<string, number[]> {
  const places = new Map<string, number[]>()
  routes.forEach((route, at) => { if (route.docId) places.set(route.docId, [...places.get(route.docId) ?? [], at]) })
  return places
}

/** Facts of every body: from the cache when the file is unchanged, else as the shards found them. */
async function factsOfBodies(docs: Doc[], cache: BuildCache, next: BuildCache, parsed: Promise<Map<string, BodyFacts>>): Promise<Map<string, BodyFacts>> {
  const found = await parsed
  const facts = new Map(docs.map((doc) => [doc.id, cache.facts.get(keyOf(doc)) ?? found.get(doc.id)!]))
  // A body stopped for its time is read again next time: the limit, or the machine's load, may differ.
  for (const doc of docs) if (!facts.get(doc.id)!.diagnostics.some((d) => d.code === 'MarkdownTooSlow')) next.facts.set(keyOf(doc), facts.get(doc.id)!)
  return facts
}

/**
 * The files of static/, copied as they are, but those the build's own files leave no room for:
 * one at the path of a file the build makes, at a folder of one, or below one. Each of those is
 * left out with a warning, as the build's own file must stay (the site's sitemap, a page).
 */
function staticFiles(project: Project, made: OutputFile[]): { statics: OutputFile[]; replaced: Diagnostic[] } {
  const occupant = occupantOf(new Map(made.map((f) => [f.path, f.path])))
  const replaced: Diagnostic[] = []
  const kept = project.staticFiles.filter((path) => {
    const taken = occupant(path)
    if (taken !== undefined) replaced.push(problem('StaticFileReplaced', [`/${taken}`], { file: `static/${path}` }, 'warning'))
    return taken === undefined
  })
  return { statics: staticOutputs(join(project.root, 'static'), kept, project.staticVersions), replaced }
}
