/**
 * Parses Markdown bodies and renders pages for one share of the site. The build runs one in its
 * own thread for small sites and one per worker thread for large ones (src/render/shards.ts); either way
 * the work and its results are the same plain data.
 */
import { deserialize, serialize } from 'node:v8'
import type { Root } from 'mdast'
import { factsOf, parseBody } from '../markdown/body.ts'
import { eachNode } from '../markdown/walk.ts'
import { problem } from '../errors.ts'
import { refusedFacts, stackRanOut } from '../markdown/screen.ts'
import { collect, type Collections } from '../routes/collections.ts'
import { pageMinifier } from './minify.ts'
import type { RenderContext } from '../page/index.ts'
import type { ImageSet } from '../assets/picture.ts'
import type { Read } from '../page/reads.ts'
import { renderRoute } from './render.tsx'
import { parkedTrees } from './parked-trees.ts'
import { InternalError, whileProcessing } from '../errors.ts'
import type { Assets, BodyFacts, BodySource, Diagnostic, Doc, Messages, Route, RouteTable, SiteConfig } from '../types.ts'

/** What every page of a build shares. Docs come without their bodies, which only their own page needs. */
export interface RenderInput {
  site: SiteConfig
  messages: Record<string, Messages>
  docs: Doc[]
  /** Internal links of each Doc's body, by Doc id. */
  links: [string, string[]][]
  routes: Route[]
  assets: Assets
  /** Processed images by their URL: static/ files' and content/ images' (src/assets/images.ts). Example: '/images/lobby.jpg' */
  images: Record<string, ImageSet>
}

export interface RenderedPage {
  path: string
  /** Minified HTML. */
  html: string
  /** Message keys the templates asked for that no locale defines. */
  missingMessages: string[]
  /** What the page read of the rest of the site (src/page/reads.ts). */
  reads: Read[]
  /** Why the page could not be rendered: its body nests too deeply for React's recursion (its html is then empty). */
  refusal?: Diagnostic
}

/** What a renderer would otherwise derive from its RenderInput. */
export interface Derived { collections: Collections; table: RouteTable }

/** Milliseconds spent per stage, summed over the pages this renderer handled. */
export interface StageTimes { parse: number; render: number; minify: number }

export type Renderer = ReturnType<typeof createRenderer>

/** `scratch`: a file for trees parked until their page is rendered (src/render/parked-trees.ts). */
export function createRenderer(scratch?: number) {
  /** Trees being rendered. */
  const trees = new Map<string, Root>()
  /**
   * Trees parsed by `analyse`, kept until their page is rendered: without positions, which only
   * the facts need, and serialized, a fifth of the tree's heap, parked on disk past a few megabytes.
   */
  const waiting = parkedTrees(scratch)
  const overflowed = new Set<string>()
  const sources = new Map<string, BodySource>()
  const times: StageTimes = { parse: 0, render: 0, minify: 0 }
  const minifyPage = pageMinifier()
  let context: RenderContext | undefined
  let missing: string[] = []
  let reads = new Set<Read>()

  const parse = (body: BodySource): Root => {
    const t0 = performance.now()
    try {
      return parseBody(body)
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      // The reader's recursion ran out of stack: the body is refused (analyse reports it), its page left empty.
      overflowed.add(body.id)
      return { type: 'root', children: [] }
    } finally {
      times.parse += performance.now() - t0
    }
  }

  const treeOf = (doc: Pick<Doc, 'id'>): Root => {
    let tree = trees.get(doc.id)
    if (!tree) {
      const kept = waiting.take(doc.id)
      const source = sources.get(doc.id)
      if (!kept && !source) throw new Error(`no body for ${doc.id}`)
      tree = kept ? deserialize(kept) as Root : parse(source!)
      trees.set(doc.id, tree)
    }
    return tree
  }

  return {
    /** Parses bodies and returns their facts; the trees wait for their pages. */
    analyse(bodies: BodySource[]): [string, BodyFacts][] {
      return bodies.map((body) => {
        const tree = parse(body)
        if (overflowed.has(body.id)) return [body.id, refusedFacts(stackRanOut(body.id, body.bodyLine))]
        try {
          const facts = factsOf(body, tree)
          eachNode(tree, (node) => { node.position = undefined })
          waiting.park(body.id, serialize(tree))
          return [body.id, facts]
        } catch (error) {
          if (!(error instanceof RangeError)) throw error
          // The reader finished a tree too deep for the walks over it (how deep each gets differs between Node's lines).
          return [body.id, refusedFacts(stackRanOut(body.id, body.bodyLine))]
        }
      })
    },

    /** `derived`: the collections and route table, when the calling thread has them already. */
    prepare(input: RenderInput, derived?: Derived): void {
      const locales = input.site.locales.map((l) => l.code)
      context = {
        site: input.site,
        messages: input.messages,
        table: derived?.table ?? { routes: input.routes, byUrl: new Map(input.routes.map((r) => [r.url, r])) },
        collections: derived?.collections ?? collect(input.docs, locales, new Map(input.links)),
        assets: input.assets,
        images: input.images,
        bodyOf: treeOf,
        onMissingMessage: (key) => missing.push(key),
        onRead: (read) => reads.add(read),
      }
    },

    /** Renders and minifies pages; `bodies` are those of their Docs (parsed only if not yet). */
    async render(routes: Route[], bodies: BodySource[]): Promise<RenderedPage[]> {
      if (!context) throw new Error('render before prepare')
      for (const body of bodies) sources.set(body.id, body)
      const pages: RenderedPage[] = []
      for (const route of routes) {
        missing = []
        reads = new Set()
        const parsedBefore = times.parse
        const t0 = performance.now()
        const source = route.docId ?? route.output
        let html: string
        try {
          html = whileProcessing(source, () => renderRoute(route, context!).contents as string)
        } catch (error) {
          if (!(error instanceof InternalError && error.cause instanceof RangeError && route.docId)) throw error
          const refusal = problem('MarkdownTooComplex', ['it nests too deeply for the page to be made from it (the stack ran out)'], { file: route.docId })
          pages.push({ path: route.output, html: '', missingMessages: [], reads: [], refusal })
          continue
        }
        const t1 = performance.now()
        pages.push({ path: route.output, html: await whileProcessing(source, () => minifyPage(html)), missingMessages: missing, reads: [...reads] })
        times.render += t1 - t0 - (times.parse - parsedBefore)
        times.minify += performance.now() - t1
        // A body is rendered by one page (listings re-parse theirs): free the tree as we go.
        if (route.docId && !route.page) trees.delete(route.docId)
      }
      // Each call brings its pages' bodies again.
      for (const body of bodies) sources.delete(body.id)
      return pages
    },

    times: (): StageTimes => ({ ...times }),
  }
}
