/**
 * The dev server's rebuild after saves that changed Markdown bodies and nothing else. When no
 * front matter changed, and no body names a link or an image it did not name before, the route
 * table, the collections and everything pages read of each other are as they were: only the
 * pages that show the edited bodies can differ, with the problems found in those bodies. They
 * alone are parsed, checked and rendered, and every other page, problem and file is the last
 * build's, so a save's cost follows the save rather than the site (a full rebuild visits every
 * page: about 60 ms at 4,000 articles).
 *
 * Any other change returns undefined and the full build runs; so does an edit that would change
 * what the deploy stage derives from all pages (an inline script or style). The result is the
 * one the full build gives (tests/build/body-edits.test.ts holds the two to each other).
 */
import { problem } from '../errors.ts'
import { ShardPool } from '../render/shards.ts'
import type { Derived, RenderInput } from '../render/renderer.ts'
import type { DeployedSite } from '../deploy/index.ts'
import type { Read } from '../page/reads.ts'
import type { Assets, BodyFacts, Diagnostic, Doc, OutputFile, Project, Route, SourceFile } from '../types.ts'
import type { FromContents } from '../util/memo.ts'
import type { BuildOptions, BuildResult } from './contract.ts'
import type { BuildCache, KnownDoc } from './cache.ts'
import { bodyEdited, keyOf, linksOf, linkText, textHash } from './known-docs.ts'
import { pageKey } from './page-keys.ts'
import { summarise } from './summary.ts'
import { contentHash } from './write.ts'

/** A build's problems, in its order: those found per Doc by Doc id (only Docs with some). */
export interface Problems { before: Diagnostic[]; bodies: Map<string, Diagnostic[]>; places: Diagnostic[]; links: Map<string, Diagnostic[]>; after: Diagnostic[]; statics: Diagnostic[] }

/** What a successful build kept in memory beside its cache (keepBuilt), for the next one to start from. */
export interface BuiltSite {
  /** The sources as read, and the options that change the output (optionsKey). */
  project: Project
  options: string
  /** The Docs built, by id, in the build's order (their bodies' facts are in the cache, by keyOf). */
  docs: Map<string, Doc>
  /** The places in the route table (and in `pages`, `keys` and `files`) of each Doc's routes. */
  routesOf: Map<string, number[]>
  diagnostics: Problems
  checkLinks: (doc: Doc, facts: BodyFacts | undefined) => Diagnostic[]
  input: RenderInput
  derived: Derived
  answer: (read: Read) => string
  sharedFor: (template: string) => string
  /** Per route: the page's key in the cache, and its file before the deploy stage. */
  keys: string[]
  pages: OutputFile[]
  /** Every file of the build, the routes' pages first and in the same order. */
  files: OutputFile[]
  redeploy: DeployedSite['redeploy']
  assets: Assets
  fromContents: FromContents
}

/**
 * The last successful build with an in-memory cache that wrote nothing (the dev server's), kept
 * beside that cache and dropped with it.
 */
const builds = new WeakMap<BuildCache, BuiltSite>()
export const builtFor = (cache: BuildCache) => builds.get(cache)
export function keepBuilt(cache: BuildCache, built: BuiltSite | undefined): void {
  if (built) builds.set(cache, built)
  else builds.delete(cache)
}

/** The options a BuiltSite must have been built with to be re-used. */
export const optionsKey = (options: BuildOptions) => JSON.stringify([options.drafts ?? false, options.translationFallback ?? false])

/** The build of `project`, read again since `built` was made; undefined when more than bodies changed. */
export async function rebuildBodies(built: BuiltSite, project: Project, cache: BuildCache, options: BuildOptions): Promise<BuildResult | undefined> {
  if (options.write !== false || optionsKey(options) !== built.options) return undefined
  const edited = editedFiles(built.project, project)
  if (!edited) return undefined
  // Each edited file's new Doc: its cached front matter with the new body.
  const docs: { before: Doc; doc: Doc; file: SourceFile; entry: KnownDoc }[] = []
  for (const file of edited) {
    const known = cache.docs.get(file.path)
    const before = built.docs.get(file.path)
    const entry = known && before && known.result.doc === before ? bodyEdited(file, known) : undefined
    if (!before || !entry?.result.doc) return undefined
    docs.push({ before, doc: entry.result.doc, file, entry })
  }
  const routes = docs.flatMap(({ doc }) => built.routesOf.get(doc.id) ?? [])

  const pool = new ShardPool(options.threads)
  try {
    const t0 = performance.now()
    const found = await pool.analyse(docs.map(({ doc }) => doc), { timeLimit: built.input.site.bodyTimeLimit })
    const facts = new Map(docs.map(({ doc }) => [doc.id, found.get(doc.id)!]))
    for (const { before, doc } of docs) {
      const [was, now] = [cache.facts.get(keyOf(before))!, facts.get(doc.id)!]
      if (linkText(linksOf(was)) !== linkText(linksOf(now)) || imageText(was) !== imageText(now)) return undefined
    }
    const parsed = performance.now() - t0

    // The pages that show the new bodies.
    const byId = new Map(docs.map(({ doc }) => [doc.id, doc]))
    const { table } = built.derived
    const t1 = performance.now()
    const rendered = await pool.render(built.input, built.derived, routes.map((at) => table.routes[at]!), (id) => byId.get(id)!)
    const renderedIn = performance.now() - t1
    // Worker threads answer in their own order: each page by its path.
    const atOf = new Map(routes.map((at) => [table.routes[at]!.output, at]))
    const made = []
    for (const rendering of rendered) {
      const at = atOf.get(rendering.path)!
      // A page that could not be made: the full build reports it.
      if (rendering.refusal) return undefined
      const page = { html: rendering.html, hash: contentHash(rendering.html), reads: rendering.reads.map((read): [Read, string] => [read, built.answer(read)]) }
      const file: OutputFile = { path: rendering.path, get contents() { return page.html }, version: page.hash }
      const deployed = built.redeploy(file, built.pages[at]!)
      if (!deployed) return undefined
      made.push({ at, route: table.routes[at]!, page, file, deployed, missing: rendering.missingMessages })
    }

    const diagnostics = withBodyProblems(built.diagnostics, docs.map(({ doc }) => ({ doc, facts: facts.get(doc.id)! })), built.checkLinks)
    const all = allProblems(built.docs.keys(), diagnostics, made.map(({ route, missing }) => ({ route, missing })))
    const timings = { parse: parsed, render: renderedIn }
    if (all.some((d) => d.severity === 'error')) return { ok: false, diagnostics: all, files: [], timings, patched: true }

    // Kept from here on: the cache and the built site now hold the new bodies.
    for (const { before, doc, file, entry } of docs) {
      cache.docs.set(file.path, entry)
      cache.facts.delete(keyOf(before))
      cache.facts.set(keyOf(doc), facts.get(doc.id)!)
      built.docs.set(doc.id, doc)
    }
    const allFiles = [...built.files]
    for (const { at, route, page, file, deployed } of made) {
      const key = pageKey(route, built.sharedFor(route.template), byId.get(route.docId!)!.hash)
      cache.pages.delete(built.keys[at]!)
      cache.pages.set(key, page)
      built.keys[at] = key
      built.pages[at] = file
      allFiles[at] = deployed
    }
    Object.assign(built, { project, files: allFiles, diagnostics })
    const summary = summarise(table, allFiles, all, built.assets, built.fromContents)
    return {
      ok: true, diagnostics: all, table, files: allFiles, summary, timings,
      work: { ...await pool.times(), threads: pool.size },
      pages: { reused: table.routes.length - routes.length, rendered: routes.length }, patched: true,
    }
  } finally {
    await pool.close()
  }
}

/**
 * Parses and renders a few pages of each template of the kept build again, and throws them away.
 * The dev server's first build of a large site renders on threads of its own, so the saves after
 * it ran this thread's parser, React and minifier cold: at 4,000 articles the first twenty took
 * about twice as long as later ones.
 */
export async function rehearse(cache: BuildCache, perTemplate = 3): Promise<void> {
  const built = builds.get(cache)
  if (!built) return
  const seen = new Map<string, number>()
  const routes = built.derived.table.routes.filter((route) => {
    if (!route.docId || route.page) return false
    seen.set(route.template, (seen.get(route.template) ?? 0) + 1)
    return seen.get(route.template)! <= perTemplate
  })
  const pool = new ShardPool(0)
  try {
    await pool.analyse(routes.map((route) => built.docs.get(route.docId!)!))
    await pool.render(built.input, built.derived, routes, (id) => built.docs.get(id)!)
  } finally {
    await pool.close()
  }
}

/**
 * The content files whose text differs between two reads of a project in which nothing else
 * changed; undefined when something else did (a file added or removed, a template, a message).
 */
function editedFiles(before: Project, after: Project): SourceFile[] | undefined {
  const same = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x, i) => x === b[i])
  const sameVersions = (a: Record<string, string>, b: Record<string, string>) => same(Object.entries(a).flat(), Object.entries(b).flat())
  if (before.siteFile !== after.siteFile || !same(before.problems, after.problems) || !same(before.localeFiles, after.localeFiles)
    || !same(before.templateFiles, after.templateFiles) || !same(before.styleFiles, after.styleFiles)
    || !same(before.staticFiles, after.staticFiles) || !same(before.contentImages, after.contentImages)
    || !sameVersions(before.staticVersions, after.staticVersions) || !sameVersions(before.contentImageVersions, after.contentImageVersions)
    || before.content.length !== after.content.length) return undefined
  const edited: SourceFile[] = []
  for (let i = 0; i < after.content.length; i++) {
    const [was, now] = [before.content[i]!, after.content[i]!]
    if (was === now) continue
    if (was.path !== now.path || now.problem || was.problem) return undefined
    if (textHash(was) !== textHash(now)) edited.push(now)
  }
  return edited
}

export const imageText = (facts: BodyFacts) => facts.images.map((image) => image.url).join(' ')

/** `found` with the problems of the new bodies of `docs` in place of their old ones. */
export function withBodyProblems(found: Problems, docs: { doc: Doc; facts: BodyFacts }[], checkLinks: BuiltSite['checkLinks']): Problems {
  const problems = { ...found, bodies: new Map(found.bodies), links: new Map(found.links) }
  for (const { doc, facts } of docs) {
    setOrDelete(problems.bodies, doc.id, facts.diagnostics)
    setOrDelete(problems.links, doc.id, checkLinks(doc, facts))
  }
  return problems
}

function setOrDelete(map: Map<string, Diagnostic[]>, id: string, found: Diagnostic[]) {
  if (found.length > 0) map.set(id, found)
  else map.delete(id)
}

/**
 * The problems in the order the full build finds them: per Doc in the Docs' order (`ids`), then
 * the messages the rendered pages asked for that no locale has, then the static files'.
 */
export function allProblems(ids: Iterable<string>, { before, bodies, places, links, after, statics }: Problems, rendered: { route: Route; missing: string[] }[]): Diagnostic[] {
  const order = [...ids]
  const perDoc = (found: Map<string, Diagnostic[]>) => (found.size === 0 ? [] : order.flatMap((id) => found.get(id) ?? []))
  const missing = rendered.flatMap(({ route, missing }) => missing.map((key) => problem('UnknownMessage', [key], { file: `templates (${route.template}, rendering ${route.url})` })))
  return [...before, ...perDoc(bodies), ...places, ...perDoc(links), ...after, ...missing, ...statics]
}
