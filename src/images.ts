/**
 * The image pipeline: every raster image under static/ is resized to a few widths and encoded as
 * AVIF, WebP and its own format, for <picture> elements with srcset, sizes, intrinsic width and
 * height (no layout shift) and a dominant-colour placeholder. Encoded files are kept in
 * .clinic/cache/images by content hash, so an unchanged image is never encoded twice.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import sharp, { type Sharp } from 'sharp'
import { problem } from './errors.ts'
import type { ImageSet } from './picture.ts'
import type { Diagnostic, Doc, OutputFile } from './types.ts'

/** Widths to emit (those wider than the source are skipped; the source's own width is kept). */
const WIDTHS = [480, 960, 1600]
const RASTER = /\.(jpe?g|png|webp)$/i
/** Site icons are fetched by browsers at fixed addresses, as they are: never re-encoded. */
const ICON = /(^|\/)(favicon|apple-touch-icon)[^/]*$/i
/** Larger sources slow every cold build and are better resized before they are committed. */
const MAX_SIDE = 4000
const MAX_BYTES = 10 * 1024 * 1024

const encoders = {
  avif: (img: Sharp) => img.avif({ quality: 50, effort: 2 }),
  webp: (img: Sharp) => img.webp({ quality: 72 }),
  jpg: (img: Sharp) => img.jpeg({ quality: 78, mozjpeg: true }),
  png: (img: Sharp) => img.png({ compressionLevel: 9, palette: true }),
}
type Format = keyof typeof encoders
const MIME: Record<Format, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' }

/**
 * Processes the raster images among `staticFiles` (paths relative to static/).
 * `cacheDir`: where encoded files are kept between builds; without it they are kept in memory.
 */
export async function processImages(staticDir: string, staticFiles: string[], cacheDir?: string): Promise<{ images: Record<string, ImageSet>; files: OutputFile[]; diagnostics: Diagnostic[] }> {
  const images: Record<string, ImageSet> = {}
  const files: OutputFile[] = []
  const diagnostics: Diagnostic[] = []
  for (const file of staticFiles.filter((f) => RASTER.test(f) && !ICON.test(f))) {
    const path = join(staticDir, file)
    const [bytes, size] = await Promise.all([readFile(path), stat(path)])
    const meta = await sharp(bytes).metadata()
    const width = meta.width ?? 0
    const height = meta.height ?? 0
    if (width > MAX_SIDE || height > MAX_SIDE || size.size > MAX_BYTES) {
      diagnostics.push(problem('OversizedImage', [`${width}×${height} px, ${(size.size / 1024 / 1024).toFixed(1)} MB`], { file: `static/${file}` }, 'warning'))
    }
    const hash = createHash('sha1').update(bytes).digest('hex').slice(0, 10)
    const own: Format = /\.png$/i.test(file) ? 'png' : 'jpg'
    const widths = [...new Set([...WIDTHS.filter((w) => w < width), Math.min(width, WIDTHS.at(-1)!)])]
    const name = basename(file, extname(file))
    const srcset: Partial<Record<Format, string>> = {}
    for (const format of ['avif', 'webp', own] as Format[]) {
      const entries: string[] = []
      for (const w of widths) {
        const output = `assets/images/${name}.${hash}-${w}.${format}`
        files.push({ path: output, contents: await encoded(bytes, `${hash}-${w}.${format}`, w, format, cacheDir) })
        entries.push(`/${output} ${w}w`)
      }
      srcset[format] = entries.join(', ')
    }
    const { dominant } = await sharp(bytes).stats()
    images[`/${file}`] = {
      width, height,
      placeholder: `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`,
      placeholderClass: `ph-${hash}`,
      sources: (['avif', 'webp'] as const).map((f) => ({ type: MIME[f], srcset: srcset[f]! })),
      fallback: { src: srcset[own]!.split(', ').at(-1)!.split(' ')[0]!, srcset: srcset[own]! },
    }
  }
  return { images, files, diagnostics }
}

const memory = new Map<string, Uint8Array>()

/** One encoded variant, from the cache when this source was encoded at this width before. */
async function encoded(source: Buffer, key: string, width: number, format: Format, cacheDir?: string): Promise<Uint8Array> {
  const cachePath = cacheDir && join(cacheDir, key)
  const known = memory.get(key) ?? (cachePath ? await readFile(cachePath).catch(() => undefined) : undefined)
  if (known) return known
  const output = await encoders[format](sharp(source).resize({ width, withoutEnlargement: true })).toBuffer()
  memory.set(key, output)
  if (cacheDir && cachePath) {
    await mkdir(cacheDir, { recursive: true })
    await writeFile(cachePath, output)
  }
  return output
}

/** A hero image named in front matter must exist under static/ and say what it shows. */
export function checkHeroImages(docs: Doc[], images: Record<string, ImageSet>): Diagnostic[] {
  return docs.flatMap((doc) => {
    const { image, imageAlt } = doc.data
    if (!image) return []
    if (!images[image]) return [problem('InvalidFrontMatter', ['image', `names ${image}, which is not an image under static/`], { file: doc.id })]
    return imageAlt ? [] : [problem('MissingAltText', [image], { file: doc.id })]
  })
}
