/**
 * Spreads parsing and rendering over the machine's cores. A shard is a renderer (src/render/renderer.ts)
 * in this thread or in a worker thread; each Doc belongs to one shard, which parses its body once
 * and renders its page from the same tree.
 */
import { availableParallelism } from 'node:os'
import type { Derived, RenderedPage, Renderer, RenderInput, StageTimes } from './renderer.ts'
import type { BodyFacts, BodySource, Route } from '../types.ts'
import { closeSync } from 'node:fs'
import { startWorker } from '../util/workers.ts'
import { openScratch } from './parked-trees.ts'
import { InternalError } from '../errors.ts'
import { refusalOf, refusedFacts, REFUSALS, screenBody, timeBudget, tooSlow } from '../markdown/screen.ts'

/** A renderer's methods, called across a thread boundary or not. */
interface Shard {
  analyse(bodies: BodySource[]): Promise<[string, BodyFacts][]>
  prepare(input: RenderInput, derived: Derived): Promise<void>
  render(routes: Route[], bodies: BodySource[]): Promise<RenderedPage[]>
  times(): Promise<StageTimes>
  close(): Promise<void>
}

/** Below this many pages or bodies of work, starting workers costs more than it saves. */
const WORKERS_FROM = 300
/** Pages per message to a shard: small enough for a steady progress indicator. */
const CHUNK = 64
/** Seconds a body may take to parse, per 256 KB of it begun (site.yaml's bodyTimeLimit). */
export const DEFAULT_TIME_LIMIT = 5

export interface AnalyseOptions {
  /** Seconds per 256 KB of a body (site.yaml's bodyTimeLimit). */
  timeLimit?: number
}

export class ShardPool {
  private shards: Shard[] = []
  private owner = new Map<string, number>()
  /** Bodies refused by analyse: their pages are rendered without them (the build reports the refusal and writes nothing). */
  private refused = new Set<string>()

  /** `threads`: worker threads to use; default one per core (up to 4) when there is enough work. */
  constructor(private readonly threads?: number) {}

  /** Opens the shards on first use, in worker threads when there is enough work. */
  private open(work: number): Shard[] {
    if (this.shards.length === 0) {
      const workers = this.threads ?? (work >= WORKERS_FROM ? Math.min(availableParallelism(), 4) : 0)
      this.shards = workers > 0 ? Array.from({ length: workers }, workerShard) : [localShard()]
    }
    return this.shards
  }

  /**
   * Parses bodies and returns their facts, by Doc id. A body of a shape the parser cannot read
   * in reasonable time is refused unread (src/markdown/screen.ts); one that comes near is parsed
   * on a thread of its own under the time limit, which is ended if it runs over.
   */
  async analyse(all: BodySource[], { timeLimit = DEFAULT_TIME_LIMIT }: AnalyseOptions = {}): Promise<Map<string, BodyFacts>> {
    const found = new Map<string, BodyFacts>()
    const bodies: BodySource[] = []
    const risky: BodySource[] = []
    for (const body of all) {
      const { refusal, risky: near } = screenBody(body.markdown, body.bodyLine)
      if (refusal) found.set(body.id, refusedFacts(refusalOf(refusal, body.id)))
      else (near ? risky : bodies).push(body)
    }
    const [shared, guarded] = await Promise.all([this.analyseShared(bodies), analyseGuarded(risky, timeLimit)])
    for (const [id, facts] of [...found, ...shared, ...guarded]) {
      found.set(id, facts)
      if (facts.diagnostics.some((d) => REFUSALS.has(d.code))) this.refused.add(id)
    }
    return found
  }

  private async analyseShared(bodies: BodySource[]): Promise<[string, BodyFacts][]> {
    if (bodies.length === 0) return []
    const shards = this.open(bodies.length)
    // By length, so that the shards finish together: parsing and rendering a body cost about as
    // much as it is long, and taking turns left one shard a third of a second behind at 4,000 articles.
    const shares = shards.map(() => [] as BodySource[])
    const load = shards.map(() => 0)
    for (const body of bodies) {
      const i = load.indexOf(Math.min(...load))
      load[i]! += body.markdown.length
      this.owner.set(body.id, i)
      shares[i]!.push(body)
    }
    const results = await Promise.all(shares.map((share, i) => shards[i]!.analyse(share)))
    return results.flat()
  }

  /**
   * Renders routes on the shards that hold their Docs; `bodyOf` gives the body of a route's Doc.
   * `derived` is what this thread made of the input: a shard in this thread uses it, workers derive their own.
   * With `take`, each shard's pages are handed over as they come, a few dozen at a time, and none
   * is kept here (a large site's pages do not fit in memory at once); else all are returned.
   */
  async render(input: RenderInput, derived: Derived, routes: Route[], bodyOf: (id: string) => BodySource, take?: (pages: RenderedPage[]) => void): Promise<RenderedPage[]> {
    if (routes.length === 0) return []
    const shards = this.open(routes.length)
    await Promise.all(shards.map((s) => s.prepare(input, derived)))
    const shares = shards.map(() => [] as Route[])
    // A listing's pages share one Doc but not its cost: they go round the shards, each of which
    // parses the listing's short body once, rather than all to the shard holding its tree.
    routes.forEach((route, i) => shares[(route.page ? undefined : this.owner.get(route.docId ?? '')) ?? i % shards.length]!.push(route))
    const kept: RenderedPage[] = []
    await Promise.all(shares.map(async (share, i) => {
      for (let at = 0; at < share.length; at += CHUNK) {
        const chunk = share.slice(at, at + CHUNK)
        const bodies = chunk.flatMap((r) => (r.docId ? [this.refused.has(r.docId) ? { ...bodyOf(r.docId), markdown: '' } : bodyOf(r.docId)] : []))
        const pages = await shards[i]!.render(chunk, bodies)
        if (take) take(pages)
        else kept.push(...pages)
      }
    }))
    return kept
  }

  /** Stage times summed over all shards (CPU time when shards run in parallel). */
  async times(): Promise<StageTimes> {
    const all = await Promise.all(this.shards.map((s) => s.times()))
    return all.reduce((a, b) => ({ parse: a.parse + b.parse, render: a.render + b.render, minify: a.minify + b.minify }), { parse: 0, render: 0, minify: 0 })
  }

  get size(): number { return this.shards.length }

  async close(): Promise<void> {
    await Promise.all(this.shards.splice(0).map((s) => s.close()))
  }
}

/** A renderer in this thread, loaded on first use: a build with nothing to render loads neither parser, React nor minifier. */
function localShard(): Shard {
  let loaded: Promise<Renderer> | undefined
  const renderer = () => (loaded ??= import('./renderer.ts').then((m) => m.createRenderer()))
  return {
    analyse: async (bodies) => (await renderer()).analyse(bodies),
    prepare: async (input, derived) => (await renderer()).prepare(input, derived),
    render: async (routes, bodies) => (await renderer()).render(routes, bodies),
    times: async () => (loaded ? (await loaded).times() : { parse: 0, render: 0, minify: 0 }),
    close: async () => {},
  }
}

/**
 * Parses each body on a worker thread of its own, one at a time, and ends the thread when a body
 * runs over its time: the only way to stop the parser, which never yields. The clock starts once
 * the thread is ready. The trees stay there: the body's own shard parses it again to render it.
 */
async function analyseGuarded(bodies: BodySource[], timeLimit: number): Promise<[string, BodyFacts][]> {
  const found: [string, BodyFacts][] = []
  let shard: Shard | undefined
  try {
    for (const body of bodies) {
      shard ??= workerShard()
      await shard.times()
      const seconds = timeBudget(body.markdown, timeLimit)
      let timer: NodeJS.Timeout | undefined
      const overrun = new Promise<'overrun'>((resolve) => { timer = setTimeout(() => resolve('overrun'), seconds * 1000) })
      const result = await Promise.race([shard.analyse([body]), overrun]).finally(() => clearTimeout(timer))
      if (result !== 'overrun') { found.push(...result); continue }
      await shard.close()
      shard = undefined
      found.push([body.id, refusedFacts(tooSlow(seconds, body.id, body.bodyLine))])
    }
  } finally {
    await shard?.close()
  }
  return found
}

interface WorkerError { message: string; stack?: string; file?: string }

/** A worker's error again as an Error, naming the file when the worker knew it. */
function fromWorker({ message, stack, file }: WorkerError): Error {
  const error = Object.assign(new Error(message), { stack: stack ?? message })
  return file === undefined ? error : new InternalError(file, error)
}

function workerShard(): Shard {
  // A larger young generation: parsing makes many short-lived objects, and the default size
  // spends a sixth of a worker's time collecting them.
  // File descriptors belong to the process: this thread opens the worker's scratch file and closes it once the worker has ended.
  let scratch = openScratch()
  const worker = startWorker('render/shard-worker', { workerData: { scratch }, resourceLimits: { maxYoungGenerationSizeMb: 128 } })
  const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>()
  let next = 0
  const fail = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  worker.on('message', ({ id, result, error }: { id: number; result?: never; error?: WorkerError }) => {
    const call = pending.get(id)
    pending.delete(id)
    if (error !== undefined) call?.reject(fromWorker(error))
    else call?.resolve(result as never)
  })
  worker.on('error', fail)
  worker.on('exit', (code) => { if (pending.size) fail(new Error(`render worker stopped (exit code ${code})`)) })
  const call = <T>(method: string, ...args: unknown[]) => new Promise<T>((resolve, reject) => {
    const id = next++
    pending.set(id, { resolve: resolve as (v: never) => void, reject })
    worker.postMessage({ id, method, args })
  })
  return {
    analyse: (bodies) => call('analyse', bodies),
    // Collections and routes cost more to copy across than to derive again.
    prepare: (input) => call('prepare', input),
    render: (routes, bodies) => call('render', routes, bodies),
    times: () => call('times'),
    close: async () => {
      await worker.terminate()
      if (scratch !== undefined) closeSync(scratch)
      scratch = undefined
    },
  }
}
