/**
 * The page minifier (src/render/minify.ts) minifies the banner and the content info of a page apart from
 * the rest, once per distinct block. Every page of the site must come out byte for byte as
 * html-minifier-terser makes the whole page.
 */
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { build } from '../../src/build/build.ts'
import { projectRoot } from '../support/helpers.ts'

// Keeps what React wrote for each page on its way to the real minifier.
const rendered = vi.hoisted(() => [] as string[])
vi.mock('../../src/render/minify.ts', async (original) => {
  const real = await original<typeof import('../../src/render/minify.ts')>()
  return {
    ...real,
    pageMinifier: () => {
      const minify = real.pageMinifier()
      return (html: string) => { rendered.push(html); return minify(html) }
    },
  }
})

const { landmarkBlocks, minifyHtml, pageMinifier } = await vi.importActual<typeof import('../../src/render/minify.ts')>('../../src/render/minify.ts')

beforeAll(async () => {
  const result = await build({ root: projectRoot, write: false, threads: 0 })
  expect(result.ok).toBe(true)
}, 120_000)

describe('every page of the site', () => {
  test('comes out as html-minifier-terser makes the whole page', async () => {
    expect(rendered.length).toBeGreaterThanOrEqual(50)
    const minifyPage = pageMinifier()
    for (const html of rendered) expect(await minifyPage(html)).toBe(await minifyHtml(html))
  })

  test('has its banner and content info minified apart', () => {
    for (const html of rendered) {
      const blocks = landmarkBlocks(html).map(([start, end]) => html.slice(start, end))
      expect(blocks.map((block) => block.slice(0, 7) + block.slice(-9))).toEqual(['<header</header>', '<footer</footer>'])
    }
  })
})

describe('the blocks', () => {
  const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>${body}</body></html>`

  test('a header nested in the banner stays inside it, and article headers and footers stay in the page', async () => {
    const html = page('<header class="a"><header>in</header><p>x</p></header><main><article><header>h</header><footer>f</footer></article></main><footer><p>info</p></footer>')
    expect(landmarkBlocks(html).map(([start, end]) => html.slice(start, end)))
      .toEqual(['<header class="a"><header>in</header><p>x</p></header>', '<footer><p>info</p></footer>'])
    expect(await pageMinifier()(html)).toBe(await minifyHtml(html))
  })

  test('a page without <main>, or holding the placeholder character, is minified whole', async () => {
    const minifyPage = pageMinifier()
    for (const html of [page('<header>h</header><footer>f</footer>'), page('<header>h</header><main>\u00010\u0001</main><footer>f</footer>')]) {
      expect(await minifyPage(html)).toBe(await minifyHtml(html))
    }
    expect(landmarkBlocks(page('<header>h</header><footer>f</footer>'))).toEqual([])
  })
})
