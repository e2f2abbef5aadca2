/**
 * A build run again after Markdown bodies alone changed, on the site the last build wrote. That
 * build keeps, beside its record (last-build.ts), what the pages it rendered were made from: the
 * render input, each Doc's front matter block, the links and images its body names and the
 * places of its pages, the problems found per Doc, the policy's meta element, and what the
 * summary read of the files. When only content files' texts changed since, each within its body,
 * with the same links and images, the pages of those bodies are rendered and replace their files
 * in the output folder; every other file, problem and figure is the last build's.
 *
 * It is the dev server's patch (body-edits.ts) for a build in a process of its own, where the full
 * build reads the build cache and visits every page: at 4,000 articles one article's edit took
 * 1.4-1.6 s so, and 0.9-1.1 s patched. The result is the one the full build gives
 * (tests/build/written-site.test.ts holds the two to each other). The
 * build cache is not touched: its entries are keyed by content, so the next full build renders
 * the patched pages again rather than trust them.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { policyApplied, sameInlineTexts } from '../deploy/index.ts'
import { bodyAfter } from '../content/parse.ts'
import { collect } from '../routes/collections.ts'
import { linkChecker } from '../routes/links.ts'
import type { RenderInput } from '../render/renderer.ts'
import { ShardPool } from '../render/shards.ts'
import type { Doc, OutputFile, Project, RouteTable, SourceFile } from '../types.ts'
import { allProblems, imageText, withBodyProblems, type Problems } from './body-edits.ts'
import { fromContentsOf } from './cache.ts'
import type { BuildResult } from './contract.ts'
import { linksOf, linkText, textHash, withNewBody } from './known-docs.ts'
import { recordBuild, type LastBuild } from './last-build.ts'
import { pageManifest, saveManifest } from './manifest.ts'
import { summarise } from './summary.ts'
import { contentHash, holdsExactly, replaceFiles } from './write.ts'
import type { FromContents } from '../util/memo.ts'
import { writeWhole } from '../util/write-whole.ts'

/**
 * What a build that wrote a site keeps for the next one to patch it, in two files: what only a
 * full build changes (written-site.bin, 7.3 MB at 4,000 articles), and what a patch changes too
 * (written-site-state.bin), so that a patch does not write the first again.
 */
export interface WrittenSite {
  /** Its fingerprint without the content files' texts (last-build.ts surroundings). */
  surroundings: string
  /** Per Doc by id, in the build's order. */
  docs: Map<string, KeptDoc>
  /** The RenderInput, serialized: read only by a patch. */
  input: Uint8Array
  /** URLs of content files that could not be read, which links may name (routes/links.ts linkChecker). */
  unreadable: string[]
  /** The security policy's meta element on every page (src/deploy/index.ts). */
  meta: string
  state: PatchState
}

/** What each patch changes. */
interface PatchState {
  /** The fingerprint of the build it describes: it goes with the record that has the same. */
  inputs: string
  /** Each content file's text hash (known-docs.ts textHash), by path. */
  sources: Map<string, string>
  problems: Problems
  /** What the summary read of output files, by `${what} ${version}` (BuildCache.derived). */
  facts: Map<string, unknown>
}

/** `fromContents`, noting in `facts` each fact it gives of a file with a version (PatchState.facts). */
export const recording = (fromContents: FromContents, facts: Map<string, unknown>): FromContents => (what, file, derive) => {
  const value = fromContents(what, file, derive)
  if (file.version !== undefined) facts.set(`${what} ${file.version}`, value)
  return value
}

/** A Doc's front matter block, the links and images its body names (as linkText and imageText give them), and the places of its pages in the route table. */
export interface KeptDoc { head: string; links: string; images: string; routes: number[] }

const madeFile = (cacheDir: string) => join(cacheDir, 'written-site.bin')
const stateFile = (cacheDir: string) => join(cacheDir, 'written-site-state.bin')

/** Keeps `site` for the next build (after its record: a patch checks they go together). */
export function keepWrittenSite(cacheDir: string, { state, ...made }: WrittenSite): void {
  // Names the two files as one pair: a build stopped between them leaves a pair that does not match.
  const generation = randomBytes(8).toString('hex')
  mkdirSync(cacheDir, { recursive: true })
  writeWhole(madeFile(cacheDir), serialize({ ...made, generation }))
  keepState(cacheDir, generation, state)
}

const keepState = (cacheDir: string, generation: string, state: PatchState) => writeWhole(stateFile(cacheDir), serialize({ ...state, generation }))

async function readWrittenSite(cacheDir: string): Promise<(WrittenSite & { generation: string }) | undefined> {
  try {
    const [made, state] = await Promise.all([madeFile(cacheDir), stateFile(cacheDir)].map(async (path) => deserialize(await readFile(path))))
    return made.generation === state.generation ? { ...made, state } : undefined
  } catch {
    return undefined
  }
}

export interface PatchAsked {
  cacheDir: string
  root: string
  out: string
  project: Project
  last: LastBuild | undefined
  /** This build's fingerprints (last-build.ts). */
  inputs: string
  surroundings: string
  threads?: number
}

/** The last build, patched with the new bodies of `project`; undefined when more than bodies changed. */
export async function patchWrittenSite({ cacheDir, root, out, project, last, inputs, surroundings, threads }: PatchAsked): Promise<BuildResult | undefined> {
  if (!last) return undefined
  const kept = await readWrittenSite(cacheDir)
  if (kept?.state.inputs !== last.inputs || kept.surroundings !== surroundings) return undefined
  const edited = project.content.filter((source) => kept.state.sources.get(source.path) !== textHash(source))
  // Each edited file must open with the front matter block it had: asked before the render input is read.
  const keepsHead = (source: SourceFile) => { const known = kept.docs.get(source.path); return known !== undefined && bodyAfter(source, known.head) !== undefined }
  if (!edited.every(keepsHead)) return undefined
  const input = deserialize(kept.input) as RenderInput
  const inputDocs = new Map(input.docs.map((doc) => [doc.id, doc]))
  const docs = edited.map((source): KeptDoc & { doc: Doc } => {
    const known = kept.docs.get(source.path)!
    return { ...known, doc: withNewBody(inputDocs.get(source.path)!, source, known.head)! }
  })
  // A page is patched only into the very folder the last build left.
  if (!await holdsExactly(out, last.written)) return undefined

  const pool = new ShardPool(threads)
  try {
    const t0 = performance.now()
    const found = await pool.analyse(docs.map(({ doc }) => doc), { timeLimit: input.site.bodyTimeLimit })
    const bodies = docs.map(({ doc }) => ({ doc, facts: found.get(doc.id)! }))
    if (docs.some(({ links, images }, i) => linkText(linksOf(bodies[i]!.facts)) !== links || imageText(bodies[i]!.facts) !== images)) return undefined
    const parsed = performance.now() - t0

    const table: RouteTable = { routes: input.routes, byUrl: new Map(input.routes.map((r) => [r.url, r])) }
    const collections = collect(input.docs, input.site.locales.map((l) => l.code), new Map(input.links))
    const routes = docs.flatMap(({ routes }) => routes.map((at) => table.routes[at]!))
    const byId = new Map(docs.map(({ doc }) => [doc.id, doc]))
    const t1 = performance.now()
    const rendered = await pool.render(input, { collections, table }, routes, (id) => byId.get(id)!)
    const renderedIn = performance.now() - t1
    const pages = []
    for (const page of rendered) {
      // A page that could not be made: the full build reports it.
      if (page.refusal) return undefined
      // Inline scripts or styles of its own would change the policy of every page.
      if (!sameInlineTexts(page.html, readFileSync(join(out, page.path), 'utf8'))) return undefined
      const { html, version } = policyApplied({ html: page.html, version: contentHash(page.html) }, kept.meta)
      pages.push({ path: page.path, contents: html, version })
    }

    const checkLinks = linkChecker(table, project.staticFiles, kept.unreadable, project.contentImages)
    const problems = withBodyProblems(kept.state.problems, bodies, checkLinks)
    const routeOf = new Map(routes.map((route) => [route.output, route]))
    const diagnostics = allProblems(kept.docs.keys(), problems, rendered.map((page) => ({ route: routeOf.get(page.path)!, missing: page.missingMessages })))
    const timings = (more = {}) => ({ parse: parsed, render: renderedIn, ...more })
    const result = { diagnostics, files: [], patched: true as const, pages: { reused: table.routes.length - routes.length, rendered: routes.length } }
    if (diagnostics.some((d) => d.severity === 'error')) return { ...result, ok: false, timings: timings() }

    // The summary reads the sizes of a sample of pages: the patched ones from their HTML, the rest as the last build found them.
    const patchedPages = new Map(pages.map((page) => [page.path, page]))
    const files = [...last.written].map(([path, { version }]): OutputFile => patchedPages.get(path) ?? { path, version, get contents() { return readFileSync(join(out, path)) } })
    const facts = new Map<string, unknown>()
    const summary = summarise(table, files, diagnostics, input.assets, fromContentsOf(kept.state.facts, facts))

    const t2 = performance.now()
    const written = replaceFiles(out, last.written, pages)
    saveManifest(root, out, pageManifest(table, { dir: out, files: written }, input.assets))
    const sources = new Map(kept.state.sources)
    for (const source of edited) sources.set(source.path, textHash(source))
    keepState(cacheDir, kept.generation, { inputs, sources, problems, facts })
    recordBuild(cacheDir, inputs, written, { diagnostics, summary, pages: table.routes.length })
    return { ...result, ok: true, summary, timings: timings({ write: performance.now() - t2 }) }
  } finally {
    await pool.close()
  }
}
