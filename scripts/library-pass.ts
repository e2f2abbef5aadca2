/**
 * One process of the libraries' floor (scripts/library-floor.ts starts it): the three libraries
 * over the bodies of up to N articles of a corpus, once to warm them up; then it says "ready",
 * waits for a line on its standard input, and prints one timed pass as JSON, milliseconds per
 * article by library. Usage: library-pass.ts CORPUS N
 */
import matter from 'gray-matter'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createElement, type ReactNode } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import { renderToStaticMarkup } from 'react-dom/server'
import rehypeReact from 'rehype-react'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { minifyHtml } from '../src/render/minify.ts'
import type { PerArticle } from './library-floor.ts'

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

const bodies = sampleOf(process.argv[2]!, Number(process.argv[3]))
await timedPass(bodies)
console.log('ready')
for await (const _ of createInterface({ input: process.stdin })) break
console.log(JSON.stringify(await timedPass(bodies)))
