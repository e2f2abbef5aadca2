/**
 * A lower bound for any cold build made of the libraries the build must use: the CPU time that
 * remark-parse, React (through remark-rehype and rehype-react) and html-minifier-terser alone
 * spend on each article's body, with nothing of clinic-build around them (no GFM, no page
 * template, no checks, no I/O), spread perfectly over every core.
 *
 * `librariesTogether` measures what that perfect spread leaves out: the same work run on every
 * core at once. On this project's machine kind two busy cores each run it slower than one core
 * alone does, so no build of these libraries can reach the perfect spread.
 */
import { spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** Milliseconds per article on one core, by library. */
export type PerArticle = { parse: number; render: number; minify: number }

export interface LibraryFloor {
  perArticle: PerArticle
  /** Seconds for `articles` articles over every core. */
  seconds: number
}

const total = (ms: PerArticle) => ms.parse + ms.render + ms.minify

/**
 * The libraries on up to `sample` articles of `corpus`, on one core of `node` (after a pass to
 * warm them up), scaled to `articles` spread perfectly over every core.
 */
export async function libraryFloor(corpus: string, articles: number, sample = 400, node = process.execPath): Promise<LibraryFloor> {
  const [alone] = await passesAtOnce(corpus, sample, node, 1)
  return { perArticle: alone!, seconds: (articles * total(alone!)) / cpus().length / 1000 }
}

/**
 * The same passes in one process of `node` per core, started together once each has warmed up:
 * the seconds for `articles` articles at the rate all of them reach at once, and the mean time
 * per article on each core.
 */
export async function librariesTogether(corpus: string, articles: number, sample = 400, node = process.execPath): Promise<LibraryFloor> {
  const each = await passesAtOnce(corpus, sample, node, cpus().length)
  const mean = (key: keyof PerArticle) => each.reduce((sum, ms) => sum + ms[key], 0) / each.length
  const articlesPerMs = each.reduce((sum, ms) => sum + 1 / total(ms), 0)
  return { perArticle: { parse: mean('parse'), render: mean('render'), minify: mean('minify') }, seconds: articles / articlesPerMs / 1000 }
}

/**
 * One timed pass in each of `processes` processes of `node` (scripts/library-pass.ts, run with
 * this process's loader flags: tsx), started together once each has warmed up: each one's times.
 */
async function passesAtOnce(corpus: string, sample: number, node: string, processes: number): Promise<PerArticle[]> {
  const script = fileURLToPath(new URL('./library-pass.ts', import.meta.url))
  // React's production build, as the CLI runs it (bin/clinic-build.js): its development build
  // validates every element, and made the floor's React three times what the build's costs.
  const env = { ...process.env, NODE_ENV: 'production' }
  const children = Array.from({ length: processes }, () => spawn(node, [...process.execArgv, script, corpus, String(sample)], { stdio: ['pipe', 'pipe', 'inherit'], env }))
  const lines = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]())
  const next = async (i: number) => {
    const line = await lines[i]!.next()
    if (line.done) throw new Error('bench: a library-floor process stopped early')
    return line.value
  }
  await Promise.all(children.map((_, i) => next(i))) // each has warmed up
  for (const child of children) child.stdin.end('go\n')
  return Promise.all(children.map(async (_, i) => JSON.parse(await next(i)) as PerArticle))
}
