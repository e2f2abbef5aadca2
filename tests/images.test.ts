/** The image pipeline: <picture> with modern formats and sizes, the hero preloaded, encodings cached. */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { beforeAll, expect, test } from 'vitest'
import { build, type BuildResult } from '../src/index.ts'
import { copySite, edit } from './helpers.ts'

let site: string
let result: BuildResult
const page = (path: string) => result.files.find((f) => f.path === path)!.contents as string

beforeAll(async () => {
  site = copySite()
  // A Markdown image in an article body, beside the home page's hero image.
  edit(site, 'content/en/privacy.md', (t) => `${t}\n![An illustration of three arches](/images/arches.jpg)\n`)
  result = await build({ root: site, out: join(site, 'dist') })
  expect(result.diagnostics).toEqual([])
})

test('the hero image is a preloaded, eager <picture> with AVIF and WebP sources and its intrinsic size', () => {
  for (const home of ['index.html', 'cn/index.html']) {
    const html = page(home)
    const picture = /<picture class="banner__image">(.*?)<\/picture>/.exec(html)![1]!
    expect(picture).toMatch(/<source type="image\/avif" srcset="\/assets\/images\/arches\.\w+-480\.avif 480w, [^"]*-960\.avif 960w, [^"]*-1600\.avif 1600w"/)
    expect(picture).toMatch(/<source type="image\/webp" srcset="[^"]+\.webp 480w/)
    expect(picture).toMatch(/<img src="\/assets\/images\/arches\.\w+-1600\.jpg" srcset="[^"]+" sizes="[^"]+" width="2400" height="1600" alt="[^"]+"[^>]* loading="eager" fetchpriority="high" class="ph-\w+">/)
    expect(html).toMatch(/<link rel="preload" as="image" type="image\/avif" imagesrcset="[^"]+-480\.avif 480w[^"]*" imagesizes="[^"]+" fetchpriority="high">/)
  }
  expect(page('contact/index.html')).not.toContain('rel="preload" as="image"')
  // The placeholder colour is painted by the stylesheet: pages carry no inline styles.
  const placeholder = /class="(ph-\w+)"/.exec(page('index.html'))![1]
  const css = result.files.find((f) => f.path.endsWith('.css'))!.contents
  expect(Buffer.from(css).toString()).toMatch(new RegExp(`\\.${placeholder}\\{background-color:#[0-9a-f]{3,6}\\}`))
  expect(page('index.html')).not.toContain(' style=')
})

test('every variant a page names is emitted, in the format its name says, at its width', async () => {
  const named = new Set([...page('index.html').matchAll(/\/(assets\/images\/[^ "]+)/g)].map((m) => m[1]!))
  expect(named.size).toBe(9)
  for (const path of named) {
    const file = result.files.find((f) => f.path === path)!
    const meta = await sharp(file.contents as Uint8Array).metadata()
    expect(meta.width, path).toBe(Number(/-(\d+)\.\w+$/.exec(path)![1]))
    expect({ avif: 'heif', webp: 'webp', jpg: 'jpeg' }[path.split('.').at(-1)!]).toBe(meta.format)
  }
})

test('Markdown images become lazy <picture> elements with width and height', () => {
  const picture = /<picture><source type="image\/avif"[^>]*><source type="image\/webp"[^>]*>(<img [^>]*>)<\/picture>/.exec(page('privacy/index.html'))
  const img = picture![1]!
  for (const attribute of ['src="/assets/images/arches.', 'srcset="', 'sizes="', 'width="2400"', 'height="1600"', 'alt="An illustration of three arches"', 'loading="lazy"', 'decoding="async"', 'class="ph-']) {
    expect(img).toContain(attribute)
  }
})

test('an unchanged image is not encoded again; a changed one is', async () => {
  const cacheDir = join(site, '.clinic/cache/images')
  const before = Object.fromEntries(readdirSync(cacheDir).map((f) => [f, statSync(join(cacheDir, f)).mtimeMs]))
  expect(Object.keys(before)).toHaveLength(9)
  await build({ root: site, out: join(site, 'dist') })
  expect(Object.fromEntries(readdirSync(cacheDir).map((f) => [f, statSync(join(cacheDir, f)).mtimeMs]))).toEqual(before)
  await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#c8b8a8' } }).jpeg().toFile(join(site, 'static/images/arches.jpg'))
  await build({ root: site, out: join(site, 'dist') })
  expect(readdirSync(cacheDir).length).toBe(9 + 9) // 480, 960 and its own 1200 px, in three formats
})

test('an oversized source is a warning naming the file; a missing hero image or its alt text is an error', async () => {
  const copy = copySite()
  await sharp({ create: { width: 4200, height: 300, channels: 3, background: '#eeeeee' } }).png().toFile(join(copy, 'static/images/banner-wide.png'))
  const warned = await build({ root: copy, write: false })
  expect(warned.ok).toBe(true)
  expect(warned.diagnostics).toMatchObject([{ code: 'OversizedImage', severity: 'warning', file: 'static/images/banner-wide.png' }])

  edit(copy, 'content/en/index.md', (t) => t.replace('image: /images/arches.jpg', 'image: /images/lobby.jpg'))
  edit(copy, 'content/cn/index.md', (t) => t.replace(/^imageAlt: .*\n/m, ''))
  const failed = await build({ root: copy, write: false })
  expect(failed.ok).toBe(false)
  expect(failed.diagnostics.filter((d) => d.severity === 'error')).toMatchObject([
    { code: 'MissingAltText', file: 'content/cn/index.md' },
    { code: 'InvalidFrontMatter', file: 'content/en/index.md', message: 'Front matter field "image" names /images/lobby.jpg, which is not an image under static/.' },
  ])
})
