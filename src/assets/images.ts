/**
 * The image pipeline: every raster image under static/ and content/ is resized to a few widths and
 * encoded as AVIF, WebP and its own format, for <picture> elements with srcset, sizes, intrinsic
 * width and height (no layout shift) and a dominant-colour placeholder. Encoded files and each
 * image's size and colour are kept by content hash (src/build/cache.ts keptFiles), so an unchanged image
 * is never encoded twice, and a build with no new image does not load sharp. SVG and GIF
 * files (and the site icons) are shown as they are, but with their intrinsic size too. An image
 * under content/ is published at its path there without the prefix (content/en/x.png -> /en/x.png),
 * as a static/ file is at its path under static/.
 */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import type * as Htmlparser2 from 'htmlparser2'
import type { Sharp } from 'sharp'
import { keptFiles, type KeptFiles } from '../util/kept-files.ts'
import { problem } from '../errors.ts'
import { onFirstUse } from '../util/on-first-use.ts'
import { imageUrl, isRelative, type ImageSet } from './picture.ts'
import type { Diagnostic, Doc, OutputFile, Project } from '../types.ts'

/** Widths to emit (those wider than the source are skipped; the source's own width is kept). */
const WIDTHS = [480, 960, 1600]
const RASTER = /\.(jpe?g|png|webp)$/i
/** Shown as they are, with their intrinsic size: re-encoding would lose vectors or animation. */
const AS_IS = /\.(svg|gif)$/i
/** Site icons are fetched by browsers at fixed addresses, as they are: never re-encoded. */
const ICON = /(^|\/)(favicon|apple-touch-icon)[^/]*$/i
/** Larger sources slow every cold build and are better resized before they are committed. */
const MAX_SIDE = 4000
const MAX_BYTES = 10 * 1024 * 1024

const ENCODINGS = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 72 },
  jpg: { quality: 78, mozjpeg: true },
  png: { compressionLevel: 9, palette: true },
}
type Format = keyof typeof ENCODINGS
const encoders: Record<Format, (img: Sharp) => Sharp> = {
  avif: (img) => img.avif(ENCODINGS.avif),
  webp: (img) => img.webp(ENCODINGS.webp),
  jpg: (img) => img.jpeg(ENCODINGS.jpg),
  png: (img) => img.png(ENCODINGS.png),
}
// Loaded on first use: a build that finds every image's facts kept loads neither.
let loadingSharp: Promise<typeof import('sharp')['default']> | undefined
const sharp = () => loadingSharp ??= import('sharp').then(({ default: library }) => {
  // libvips' cache of operations serves a program that opens one image again and again; a build
  // encodes each once, and the cache held 60 MB of a cold build's peak.
  library.cache(false)
  return library
})
const htmlparser2 = onFirstUse<typeof Htmlparser2>('htmlparser2')
const MIME: Record<Format, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' }

export interface ProcessedImages { images: Record<string, ImageSet>; files: OutputFile[]; diagnostics: Diagnostic[] }

/**
 * Processes the images among `files` (paths relative to `dir`, the site's `folder`), each shown at
 * `/${file}`. static/ is copied into the output as it is; of content/ only the images are
 * published, so their originals are among the returned files.
 * `kept`: where encoded files and image facts are kept between builds; without one, in memory.
 */
export async function processImages(dir: string, files: string[], kept: KeptFiles = keptFiles(), folder: 'static' | 'content' = 'static'): Promise<ProcessedImages> {
  const keep = <T>(key: string, make: () => Promise<T>) => kept(key, () => inMemory(key, make))
  const images: Record<string, ImageSet> = {}
  const outputs: OutputFile[] = []
  const diagnostics: Diagnostic[] = []
  const publish = (file: string, bytes: Buffer) => {
    if (folder === 'content') outputs.push({ path: file, contents: bytes })
  }
  for (const file of files.filter((f) => RASTER.test(f) && !ICON.test(f))) {
    const path = join(dir, file)
    const [bytes, size] = await Promise.all([readFile(path), stat(path)])
    publish(file, bytes)
    const hash = shortHash(bytes)
    const { width, height, dominant } = await keep(`image-${hash}.facts`, () => factsOf(bytes))
    if (width > MAX_SIDE || height > MAX_SIDE || size.size > MAX_BYTES) {
      diagnostics.push(problem('OversizedImage', [`${width}×${height} px, ${(size.size / 1024 / 1024).toFixed(1)} MB`], { file: `${folder}/${file}` }, 'warning'))
    }
    const own: Format = /\.png$/i.test(file) ? 'png' : 'jpg'
    const widths = [...new Set([...WIDTHS.filter((w) => w < width), Math.min(width, WIDTHS.at(-1)!)])]
    const name = basename(file, extname(file))
    const srcset: Partial<Record<Format, string>> = {}
    for (const format of ['avif', 'webp', own] as Format[]) {
      const entries: string[] = []
      for (const w of widths) {
        const output = `assets/images/${name}.${hash}-${w}.${format}`
        const key = `image-${hash}-${w}.${format}`
        outputs.push({ path: output, contents: await keep(key, () => encode(bytes, w, format)) })
        entries.push(`/${output} ${w}w`)
      }
      srcset[format] = entries.join(', ')
    }
    images[`/${file}`] = {
      width, height,
      placeholder: dominant,
      placeholderClass: `ph-${hash}`,
      sources: (['avif', 'webp'] as const).map((f) => ({ type: MIME[f], srcset: srcset[f]! })),
      fallback: { src: srcset[own]!.split(', ').at(-1)!.split(' ')[0]!, srcset: srcset[own]! },
    }
  }
  for (const file of files.filter((f) => AS_IS.test(f) || (RASTER.test(f) && ICON.test(f)))) {
    const bytes = await readFile(join(dir, file))
    publish(file, bytes)
    const size = await keep(`image-${shortHash(bytes)}.size`, async () => (/\.svg$/i.test(file) ? svgSize(bytes.toString('utf8')) : rasterSize(bytes)))
    if (size) images[`/${file}`] = { ...size, sources: [], fallback: { src: `/${file}` } }
    else diagnostics.push(problem('UnsizedImage', [`/${file}`, /\.svg$/i.test(file) ? 'has no width and height attributes and no viewBox' : 'could not be read'], { file: `${folder}/${file}` }, 'warning'))
  }
  return { images, files: outputs, diagnostics }
}

/** The images of static/ and of content/ (src/content/read.ts lists them), in one table by URL. */
export async function siteImages(root: string, project: Pick<Project, 'staticFiles' | 'contentImages'>, kept?: KeptFiles): Promise<ProcessedImages> {
  const parts = [
    await processImages(join(root, 'static'), project.staticFiles, kept),
    await processImages(join(root, 'content'), project.contentImages, kept, 'content'),
  ]
  return {
    images: Object.assign({}, ...parts.map((p) => p.images)),
    // Identical images in two places share their encoded variants: each is written once.
    files: [...new Map(parts.flatMap((p) => p.files).map((f) => [f.path, f])).values()],
    diagnostics: parts.flatMap((p) => p.diagnostics),
  }
}

/** CSS pixels per unit of an absolute length, as browsers size an SVG (96 px to the inch). */
const PX: Record<string, number> = { '': 1, px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6, pt: 96 / 72, pc: 16 }

/** '12.5cm' -> 472.44; a percentage, a relative unit or nonsense -> undefined. */
function absoluteLength(value: string | undefined): number | undefined {
  const match = /^\s*\+?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*([a-z]*)\s*$/i.exec(value ?? '')
  const perUnit = match ? PX[match[3]!.toLowerCase()] : undefined
  const px = perUnit && Number(match![1]! + (match![2] ?? '')) * perUnit
  return px && Number.isFinite(px) ? px : undefined
}

/**
 * The size an SVG has in an <img>, in CSS pixels: its width and height attributes, the missing one
 * (or both) from the proportions of its viewBox. Undefined when neither gives one, as browsers then
 * fall back to 300 × 150.
 *   '<svg width="4in" viewBox="0 0 40 30">' -> { width: 384, height: 288 }
 */
export function svgSize(text: string): { width: number; height: number } | undefined {
  const { DomUtils, parseDocument } = htmlparser2()
  const root = DomUtils.findOne((el) => /^(\w+:)?svg$/.test(el.name), parseDocument(text, { xmlMode: true }).children, false)
  if (!root) return undefined
  const box = (root.attribs.viewBox ?? '').trim().split(/[\s,]+/).map(Number)
  const [boxWidth, boxHeight] = box.length === 4 && box[2]! > 0 && box[3]! > 0 ? [box[2]!, box[3]!] : [undefined, undefined]
  let width = absoluteLength(root.attribs.width)
  let height = absoluteLength(root.attribs.height)
  if (boxWidth && boxHeight) {
    width ??= height ? (height * boxWidth) / boxHeight : boxWidth
    height ??= (width * boxHeight) / boxWidth
  }
  return width && height ? { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) } : undefined
}

/** A GIF's or an icon's size; one frame of an animation. */
async function rasterSize(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  const meta = await (await sharp())(bytes).metadata().catch(() => undefined)
  const height = meta?.pageHeight ?? meta?.height
  return meta?.width && height ? { width: meta.width, height } : undefined
}

/** Size and dominant colour (as CSS) of a raster image. */
async function factsOf(bytes: Buffer): Promise<{ width: number; height: number; dominant: string }> {
  const image = (await sharp())(bytes)
  const [{ width = 0, height = 0 }, { dominant }] = await Promise.all([image.metadata(), image.stats()])
  return { width, height, dominant: `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, '0')).join('')}` }
}

async function encode(source: Buffer, width: number, format: Format): Promise<Uint8Array> {
  return encoders[format]((await sharp())(source).resize({ width, withoutEnlargement: true })).toBuffer()
}

const shortHash = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex').slice(0, 10)

// Within one process (the dev server's builds, the tests), whatever the kept files' folder.
const memory = new Map<string, unknown>()
async function inMemory<T>(key: string, make: () => Promise<T>): Promise<T> {
  if (!memory.has(key)) memory.set(key, await make())
  return memory.get(key) as T
}

/**
 * A hero image named in front matter must exist, beside its Markdown file or under static/, and
 * say what it shows. It is preloaded in its modern formats, so it must be one the pipeline
 * encodes (not a site icon).
 */
export function checkHeroImages(docs: Doc[], images: Record<string, ImageSet>): Diagnostic[] {
  return docs.flatMap((doc) => {
    const { image, imageAlt } = doc.data
    if (!image) return []
    if (!images[imageUrl(image, doc.id) ?? '']?.sources.length) {
      const where = isRelative(image) ? `beside ${doc.id}` : 'under static/'
      return [problem('InvalidFrontMatter', ['image', `names ${image}, which is not an image ${where}`], { file: doc.id })]
    }
    return imageAlt ? [] : [problem('MissingAltText', [image], { file: doc.id })]
  })
}
