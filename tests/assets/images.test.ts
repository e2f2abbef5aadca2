/**
 * The image pipeline: <picture> with modern formats and sizes, the hero preloaded, encodings
 * cached; SVG and GIF images shown as they are with their intrinsic size; images whose size the
 * build cannot know named with their file and line.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { formatDiagnostic } from '../../src/errors.ts'
import { processImages, svgSize } from '../../src/assets/images.ts'
import { build, type BuildResult } from '../../src/index.ts'
import { copySite, edit } from '../support/helpers.ts'

let site: string
let result: BuildResult
const page = (path: string) => result.files.find((f) => f.path === path)!.contents as string

beforeAll(async () => {
  site = copySite()
  // Drawings and an animation, shown as they are: sized by their attributes, their viewBox, their pixels.
  writeFileSync(join(site, 'static/images/diagram.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 64 64"><rect width="64" height="64"/></svg>')
  writeFileSync(join(site, 'static/images/wave.svg'), '<?xml version="1.0"?>\n<!-- a wave -->\n<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 120 40"><path d="M0 20h120"/></svg>')
  await sharp({ create: { width: 48, height: 32, channels: 3, background: '#c8b8a8' } }).gif().toFile(join(site, 'static/images/pulse.gif'))
  // Markdown images in an article body, beside the home page's hero image.
  edit(site, 'content/en/privacy.md', (t) => `${t}\n![An illustration of three arches](/images/arches.jpg)\n\n`
    + '![A diagram of the eyelid](/images/diagram.svg) ![A wave](/images/wave.svg) ![A pulsing dot](/images/pulse.gif)\n')
  // Encodings where builds before .clinic/cache/files kept them.
  mkdirSync(join(site, '.clinic/cache/images'), { recursive: true })
  writeFileSync(join(site, '.clinic/cache/images/arches-480.avif'), 'old')
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

test('SVG and GIF images in Markdown keep their address and get their intrinsic width and height', () => {
  const html = page('privacy/index.html')
  const img = (src: string) => new RegExp(`<img src="${src}"[^>]*>`).exec(html)?.[0]
  expect(img('/images/diagram.svg')).toBe('<img src="/images/diagram.svg" alt="A diagram of the eyelid" loading="lazy" decoding="async" width="640" height="360">')
  expect(img('/images/wave.svg')).toBe('<img src="/images/wave.svg" alt="A wave" loading="lazy" decoding="async" width="120" height="40">')
  expect(img('/images/pulse.gif')).toBe('<img src="/images/pulse.gif" alt="A pulsing dot" loading="lazy" decoding="async" width="48" height="32">')
  // Served from static/ as they are, with no <picture>, variants or placeholder class of their own.
  expect(html).not.toMatch(/<picture>(?:(?!<\/picture>).)*\/images\/(diagram|wave|pulse)\./)
  for (const file of ['diagram.svg', 'wave.svg', 'pulse.gif']) expect(existsSync(join(site, 'dist/images', file)), file).toBe(true)
  expect(result.files.filter((f) => /assets\/images\/(diagram|wave|pulse)/.test(f.path))).toEqual([])
})

test.each([
  ['width and height in px', '<svg width="640px" height="360" viewBox="0 0 1 1">', { width: 640, height: 360 }],
  ['absolute units at 96 px to the inch', '<svg width="2in" height="1.5cm">', { width: 192, height: 57 }],
  ['the viewBox alone', '<svg viewBox="0 0 120 40">', { width: 120, height: 40 }],
  ['a viewBox with commas and an offset', '<svg viewBox="-10,-10, 300,150">', { width: 300, height: 150 }],
  ['the width and the viewBox proportions', '<svg width="60" viewBox="0 0 120 40">', { width: 60, height: 20 }],
  ['the height and the viewBox proportions', '<svg height="80" viewBox="0 0 120 40">', { width: 240, height: 80 }],
  ['percentages give way to the viewBox', '<svg width="100%" height="50%" viewBox="0 0 120 40">', { width: 120, height: 40 }],
  ['a prefixed root, after a declaration and a comment', '<?xml version="1.0"?><!-- x --><svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="10" height="20">', { width: 10, height: 20 }],
  ['nothing to go by', '<svg>', undefined],
  ['a width alone', '<svg width="300">', undefined],
  ['relative units alone', '<svg width="10em" height="5em">', undefined],
  ['an empty viewBox', '<svg viewBox="0 0 0 0">', undefined],
  ['not an SVG', '<html><svg width="10" height="10"></svg></html>', undefined],
])('the size of an SVG: %s', (_, text, size) => {
  expect(svgSize(`${text}</svg>`)).toEqual(size)
})

test('an SVG or GIF whose size cannot be known is a warning naming the file; icons are sized, never re-encoded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-static-'))
  writeFileSync(join(dir, 'blank.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>')
  writeFileSync(join(dir, 'broken.gif'), 'GIF89a, but not really')
  writeFileSync(join(dir, 'favicon.svg'), readFileSync(join(site, 'static/favicon.svg')))
  await sharp({ create: { width: 32, height: 32, channels: 4, background: '#5b3a2e' } }).png().toFile(join(dir, 'favicon-32.png'))
  const { images, files, diagnostics } = await processImages(dir, ['blank.svg', 'broken.gif', 'favicon-32.png', 'favicon.svg'])
  expect(diagnostics.map(formatDiagnostic)).toEqual([
    'static/blank.svg  warning UnsizedImage  Image /blank.svg has no width and height attributes and no viewBox, so its width and height are unknown and the text after it moves when it arrives.\n'
    + '  hint: Save the image as JPEG, PNG, WebP, GIF or SVG beside the Markdown file and write its path relative to that file: ![A drawing of the eyelid](eyelid.svg). An SVG needs width and height attributes or a viewBox.',
    expect.stringMatching(/^static\/broken\.gif {2}warning UnsizedImage {2}Image \/broken\.gif could not be read, so /),
  ])
  expect(images).toEqual({
    '/favicon-32.png': { width: 32, height: 32, sources: [], fallback: { src: '/favicon-32.png' } },
    '/favicon.svg': { width: 40, height: 40, sources: [], fallback: { src: '/favicon.svg' } },
  })
  expect(files).toEqual([])
})

test('a Markdown image missing from static/ or from beside the page is an error; one from another site is a warning, each at its line', async () => {
  const copy = copySite()
  const lines = [
    '![A chart](https://charts.example/bmi.png)',
    '![An arch](../images/arches.jpg)',
    '![A lobby][lobby]',
    '![The waiting room](/images/waiting-room.jpg)',
    '[lobby]: //cdn.example/lobby.jpg',
  ]
  edit(copy, 'content/en/privacy.md', (t) => `${t}\n${lines.join('\n\n')}\n`)
  const text = readFileSync(join(copy, 'content/en/privacy.md'), 'utf8').split('\n')
  const lineOf = (snippet: string) => text.indexOf(snippet) + 1
  const failed = await build({ root: copy, write: false })
  expect(failed.ok).toBe(false)
  expect(failed.diagnostics.map(({ code, severity, file, line, column, message }) => ({ code, severity, file, line, column, message }))).toEqual([
    { code: 'UnsizedImage', severity: 'warning', file: 'content/en/privacy.md', line: lineOf(lines[0]!), column: 1, message: 'Image https://charts.example/bmi.png is on another site, not under static/, so its width and height are unknown and the text after it moves when it arrives.' },
    // Relative to the Markdown file: content/images/arches.jpg, not the static/images/arches.jpg of the same URL.
    { code: 'MissingImage', severity: 'error', file: 'content/en/privacy.md', line: lineOf(lines[1]!), column: 1, message: 'Image ../images/arches.jpg is not a file beside the page: content/images/arches.jpg does not exist.' },
    { code: 'MissingImage', severity: 'error', file: 'content/en/privacy.md', line: lineOf(lines[3]!), column: 1, message: 'Image /images/waiting-room.jpg is not a file under static/.' },
    { code: 'UnsizedImage', severity: 'warning', file: 'content/en/privacy.md', line: lineOf(lines[2]!), column: 1, message: 'Image //cdn.example/lobby.jpg is on another site, not under static/, so its width and height are unknown and the text after it moves when it arrives.' },
  ])
})

test('an unchanged image is not encoded again; a changed one is, and the old encodings go', async () => {
  const keptDir = join(site, '.clinic/cache/files')
  expect(existsSync(join(site, '.clinic/cache/images'))).toBe(false) // removed by the first build
  const times = () => Object.fromEntries(readdirSync(keptDir).map((f) => [f, statSync(join(keptDir, f)).mtimeMs]))
  const encodings = () => readdirSync(keptDir).filter((f) => /^image-.*\.(avif|webp|jpg)~/.test(f))
  const before = times()
  expect(encodings()).toHaveLength(9) // arches.jpg: 480, 960 and 1600 px, in three formats
  await build({ root: site, out: join(site, 'dist') })
  expect(times()).toEqual(before)
  await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#c8b8a8' } }).jpeg().toFile(join(site, 'static/images/arches.jpg'))
  await build({ root: site, out: join(site, 'dist') })
  expect(encodings()).toHaveLength(9) // 480, 960 and its own 1200 px
  expect(encodings().filter((f) => f in before)).toEqual([])
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

describe('images beside the Markdown, under content/', () => {
  const ARTICLE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
  let root: string
  let built: BuildResult
  const html = (path: string) => built.files.find((f) => f.path === path)!.contents as string

  beforeAll(async () => {
    root = copySite()
    mkdirSync(join(root, 'content/en/shared'))
    mkdirSync(join(root, 'content/cn/services/img'))
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#a8b8c8' } }).png().toFile(join(root, 'content/en/blog/rhinoplasty-recovery-timeline.png'))
    writeFileSync(join(root, 'content/en/shared/nose.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><path d="M0 0h320v200z"/></svg>')
    await sharp({ create: { width: 1000, height: 600, channels: 3, background: '#d8c8b8' } }).jpeg().toFile(join(root, 'content/cn/services/img/恢复期.jpg'))
    // Shown on no page, yet published and encoded like the others; and too large.
    await sharp({ create: { width: 4200, height: 300, channels: 3, background: '#eeeeee' } }).png().toFile(join(root, 'content/en/blog/wide-banner.png'))
    edit(root, ARTICLE, (t) => `${t}\n![Recovery timeline](rhinoplasty-recovery-timeline.png)\n\n![A drawing of the nose](../shared/nose.svg)\n`)
    edit(root, 'content/cn/services/rhinoplasty.md', (t) => t.replace('## 手术简介\n', '## 手术简介\n\n![鼻整形后的恢复期](./img/恢复期.jpg)\n'))
    built = await build({ root, out: join(root, 'dist') })
    expect(built.ok).toBe(true)
    expect(built.diagnostics).toMatchObject([{ code: 'OversizedImage', severity: 'warning', file: 'content/en/blog/wide-banner.png' }])
    expect(built.diagnostics).toHaveLength(1)
  })

  test('an image written relative to its Markdown file is a lazy <picture> with AVIF and WebP, width, height and a placeholder', () => {
    const page = html('blog/how-to-prepare-for-a-rhinoplasty/index.html')
    const picture = /<picture>(<source type="image\/avif"[^>]*>)(<source type="image\/webp"[^>]*>)(<img [^>]*>)<\/picture>/.exec(page)
    const [avif, webp, img] = picture!.slice(1)
    expect(avif).toMatch(/srcset="\/assets\/images\/rhinoplasty-recovery-timeline\.\w+-480\.avif 480w, [^"]*-960\.avif 960w, [^"]*-1200\.avif 1200w" sizes="[^"]+"/)
    expect(webp).toMatch(/srcset="\/assets\/images\/rhinoplasty-recovery-timeline\.\w+-480\.webp 480w/)
    expect(img).toMatch(/^<img src="\/assets\/images\/rhinoplasty-recovery-timeline\.\w+-1200\.png" /)
    for (const attribute of ['srcset="/assets/images/rhinoplasty-recovery-timeline.', '-480.png 480w', 'sizes="', 'width="1200"', 'height="800"', 'alt="Recovery timeline"', 'loading="lazy"', 'decoding="async"', 'class="ph-']) {
      expect(img).toContain(attribute)
    }
    const placeholder = /class="(ph-\w+)"/.exec(img!)![1]
    const css = built.files.find((f) => /^assets\/[^/]+\.css$/.test(f.path))!.contents
    expect(Buffer.from(css).toString()).toContain(`.${placeholder}{background-color:#`)
  })

  test('the original is published at its path under content/ without the prefix', () => {
    for (const [source, url] of [
      ['content/en/blog/rhinoplasty-recovery-timeline.png', 'en/blog/rhinoplasty-recovery-timeline.png'],
      ['content/en/shared/nose.svg', 'en/shared/nose.svg'],
      ['content/cn/services/img/恢复期.jpg', 'cn/services/img/恢复期.jpg'],
      ['content/en/blog/wide-banner.png', 'en/blog/wide-banner.png'],
    ]) {
      expect(readFileSync(join(root, 'dist', url!)).equals(readFileSync(join(root, source!))), url).toBe(true)
    }
    // Only the images of content/ are published: never its Markdown.
    expect(existsSync(join(root, 'dist/en/blog/how-to-prepare-for-a-rhinoplasty.md'))).toBe(false)
  })

  test('an SVG beside the Markdown keeps its address, now its URL, and gets its intrinsic size', () => {
    const page = html('blog/how-to-prepare-for-a-rhinoplasty/index.html')
    expect(page).toContain('<img src="/en/shared/nose.svg" alt="A drawing of the nose" loading="lazy" decoding="async" width="320" height="200">')
  })

  test("a Chinese page's image, named in Chinese in a folder beside it, is a <picture> too", () => {
    const page = html('cn/services/rhinoplasty/index.html')
    const img = /<picture><source type="image\/avif" srcset="[^"]+-480\.avif 480w[^"]*"[^>]*><source type="image\/webp"[^>]*>(<img [^>]*>)<\/picture>/.exec(page)![1]
    for (const attribute of ['src="/assets/images/恢复期.', 'srcset="', 'width="1000"', 'height="600"', 'alt="鼻整形后的恢复期"', 'loading="lazy"', 'class="ph-']) expect(img).toContain(attribute)
  })

  test('a hero image beside its Markdown file is shown and preloaded; a missing one is named with where it should be', async () => {
    const copy = copySite()
    copyFileSync(join(copy, 'static/images/arches.jpg'), join(copy, 'content/en/lobby.jpg'))
    copyFileSync(join(copy, 'static/images/arches.jpg'), join(copy, 'content/cn/lobby.jpg')) // the same image, unused
    edit(copy, 'content/en/index.md', (t) => t.replace('image: /images/arches.jpg', 'image: lobby.jpg'))
    edit(copy, 'content/cn/index.md', (t) => t.replace('image: /images/arches.jpg', 'image: ../en/lobby.jpg'))
    const shown = await build({ root: copy, write: false })
    expect(shown.diagnostics).toEqual([])
    // Both copies are published; their encoded variants, the same files, are written once.
    const paths = shown.files.map((f) => f.path)
    expect(paths).toEqual(expect.arrayContaining(['en/lobby.jpg', 'cn/lobby.jpg']))
    expect(paths.filter((p) => p.startsWith('assets/images/lobby.'))).toHaveLength(9)
    expect(new Set(paths).size).toBe(paths.length)
    for (const home of ['index.html', 'cn/index.html']) {
      const page = shown.files.find((f) => f.path === home)!.contents as string
      expect(page, home).toMatch(/<picture class="banner__image"><source type="image\/avif" srcset="\/assets\/images\/lobby\.\w+-480\.avif 480w/)
      expect(page, home).toMatch(/<link rel="preload" as="image" type="image\/avif" imagesrcset="\/assets\/images\/lobby\.\w+-480\.avif 480w/)
    }
    edit(copy, 'content/en/index.md', (t) => t.replace('image: lobby.jpg', 'image: foyer.jpg'))
    const failed = await build({ root: copy, write: false })
    expect(failed.diagnostics).toMatchObject([
      { code: 'InvalidFrontMatter', file: 'content/en/index.md', message: 'Front matter field "image" names foyer.jpg, which is not an image beside content/en/index.md.' },
    ])
    // Only the home page's banner shows an image: elsewhere the field would be preloaded for nothing.
    edit(copy, ARTICLE, (t) => t.replace('---\n', '---\nimage: lobby.jpg\n'))
    const unshown = await build({ root: copy, write: false })
    expect(unshown.diagnostics).toContainEqual(expect.objectContaining({ code: 'InvalidFrontMatter', file: ARTICLE, line: 2, message: expect.stringContaining('"image"') }))
  })

  test('an image missing beside the page is an error at its line and column', async () => {
    const copy = copySite()
    const lines = ['See the chart: ![A recovery chart](chart.png)', '![A splint](./img/splint.jpg)', '![An arch](../../static/images/arches.jpg)']
    edit(copy, 'content/cn/privacy.md', (t) => `${t}\n${lines.join('\n\n')}\n`)
    const text = readFileSync(join(copy, 'content/cn/privacy.md'), 'utf8').split('\n')
    const lineOf = (snippet: string) => text.indexOf(snippet) + 1
    const failed = await build({ root: copy, write: false })
    expect(failed.ok).toBe(false)
    const missing = failed.diagnostics.filter((d) => d.code === 'MissingImage')
    expect(missing.map(({ severity, file, line, column, message }) => ({ severity, file, line, column, message }))).toEqual([
      { severity: 'error', file: 'content/cn/privacy.md', line: lineOf(lines[0]!), column: 16, message: 'Image chart.png is not a file beside the page: content/cn/chart.png does not exist.' },
      { severity: 'error', file: 'content/cn/privacy.md', line: lineOf(lines[1]!), column: 1, message: 'Image ./img/splint.jpg is not a file beside the page: content/cn/img/splint.jpg does not exist.' },
      { severity: 'error', file: 'content/cn/privacy.md', line: lineOf(lines[2]!), column: 1, message: 'Image ../../static/images/arches.jpg is not a file beside the page: it leads out of content/.' },
    ])
    expect(formatDiagnostic(missing[0]!)).toMatch(new RegExp(`^content/cn/privacy\\.md:${lineOf(lines[0]!)}:16  MissingImage  Image chart\\.png is not a file beside the page: content/cn/chart\\.png does not exist\\.\\n  hint: Keep the image`))
  })

  test('an image under content/ published where a static file or a page is, is an error naming both files', async () => {
    const copy = copySite()
    mkdirSync(join(copy, 'content/images'))
    copyFileSync(join(copy, 'static/images/arches.jpg'), join(copy, 'content/images/arches.jpg'))
    // A page at /cn/faq.png/ is written to cn/faq.png/index.html, where the image needs a file.
    writeFileSync(join(copy, 'content/cn/faq.png'), readFileSync(join(copy, 'static/favicon-32.png')))
    for (const locale of ['en', 'cn']) copyFileSync(join(copy, `content/${locale}/privacy.md`), join(copy, `content/${locale}/faq.png.md`))
    const failed = await build({ root: copy, write: false })
    expect(failed.ok).toBe(false)
    expect(failed.diagnostics.filter((d) => d.code === 'DuplicateUrl').map(({ file, message }) => ({ file, message }))).toEqual([
      { file: 'content/cn/faq.png', message: '/cn/faq.png is produced by more than one file: content/cn/faq.png and content/cn/faq.png.md.' },
      { file: 'content/images/arches.jpg', message: '/images/arches.jpg is produced by more than one file: content/images/arches.jpg and static/images/arches.jpg.' },
    ])
  })
})
