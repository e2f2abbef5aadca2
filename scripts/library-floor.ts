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
import matter from 'gray-matter'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createElement, type ReactNode } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import { renderToStaticMarkup } from 'react-dom/server'
import rehypeReact from 'rehype-react'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { minifyHtml } from '../src/render/minify.ts'

/** Milliseconds per article on one core, by library. */
type PerArticle = { parse: number; render: number; minify: number }

export interface LibraryFloor {
  perArticle: PerArticle
  /** Seconds for `articles` articles over every core. */
  seconds: number
}

const parser = unified().use(remarkParse)
const toReact = unified().use(remarkRehype).use(rehypeReact, { Fragment, jsx, jsxs })

const sampleOf = (corpus: string, sample: number) => readdirSync(corpus).filter((f) => f.endsWith('.md')).sort().slice(0, sample)
  .map((f) => matter(readFileSync(join(corpus, f), 'utf8')).content)

/** One pass of the three libraries over `bodies`: milliseconds per article, by library. */
async function timedPass(bodies: string[]): Promise<PerArticle> {
  const ms = { parse: 0, render: 0, minify: 0 }
  for (const body of bodies) {
    let t = performance.now()
    const tree = parser.parse(body)
    ms.parse += performance.now() - t
    t = performance.now()
    const html = renderToStaticMarkup(createElement('article', null, toReact.stringify(toReact.runSync(tree)) as ReactNode))
    ms.render += performance.now() - t
    t = performance.now()
    await minifyHtml(html)
    ms.minify += performance.now() - t
  }
  return { parse: ms.parse / bodies.length, render: ms.render / bodies.length, minify: ms.minify / bodies.length }
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
 * One timed pass in each of `processes` processes of `node`, run from this file with this
 * process's loader flags (tsx), started together once each has warmed up: each one's times.
 */
async function passesAtOnce(corpus: string, sample: number, node: string, processes: number): Promise<PerArticle[]> {
  const script = fileURLToPath(import.meta.url)
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

// One of passesAtOnce's processes: warm up, say so, wait for the word, time a pass.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bodies = sampleOf(process.argv[2]!, Number(process.argv[3]))
  await timedPass(bodies)
  console.log('ready')
  for await (const _ of createInterface({ input: process.stdin })) break
  console.log(JSON.stringify(await timedPass(bodies)))
}
