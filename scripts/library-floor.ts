/**
 * A lower bound for any cold build made of the libraries the build must use: the CPU time that
 * remark-parse, React (through remark-rehype and rehype-react) and html-minifier-terser alone
 * spend on each article's body, with nothing of clinic-build around them (no GFM, no page
 * template, no checks, no I/O), spread perfectly over every core.
 */
import matter from 'gray-matter'
import { readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { createElement, type ReactNode } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import { renderToStaticMarkup } from 'react-dom/server'
import rehypeReact from 'rehype-react'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { minifyHtml } from '../src/render/minify.ts'

export interface LibraryFloor {
  /** Milliseconds per article on one core, by library. */
  perArticle: { parse: number; render: number; minify: number }
  /** Seconds for `articles` articles over every core. */
  seconds: number
}

const parser = unified().use(remarkParse)
const toReact = unified().use(remarkRehype).use(rehypeReact, { Fragment, jsx, jsxs })

/** Times the libraries on up to `sample` articles of `corpus` (after one pass to warm them up) and scales to `articles`. */
export async function libraryFloor(corpus: string, articles: number, sample = 400): Promise<LibraryFloor> {
  const bodies = readdirSync(corpus).filter((f) => f.endsWith('.md')).sort().slice(0, sample)
    .map((f) => matter(readFileSync(join(corpus, f), 'utf8')).content)
  const pass = async () => {
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
    return ms
  }
  await pass()
  const total = await pass()
  const perArticle = { parse: total.parse / bodies.length, render: total.render / bodies.length, minify: total.minify / bodies.length }
  const seconds = (articles * (perArticle.parse + perArticle.render + perArticle.minify)) / cpus().length / 1000
  return { perArticle, seconds }
}
