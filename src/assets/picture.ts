/** How a processed image (src/assets/images.ts) is shown: shared by the templates and Markdown. Pure. */

/** The formats the image pipeline sizes, and the only files under content/ that are published. */
export const IMAGE_FILE = /\.(jpe?g|png|webp|gif|svg)$/i

/** Written relative to its Markdown file: neither from the root, nor on another site, nor an anchor. */
export const isRelative = (src: string) => !/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(src)

/**
 * The URL of the image a Markdown file shows, which is also its key in the pipeline's table. A path
 * from the root is kept; a relative one is resolved against the Markdown file under content/, where
 * an image is published at its path without the `content/` prefix. Undefined for another site or
 * scheme, and for a relative path that leads out of content/.
 *   imageUrl('/images/a%20b.svg?v=2', 'content/en/x.md')   -> '/images/a b.svg'
 *   imageUrl('../shared/y.svg', 'content/en/blog/post.md')  -> '/en/shared/y.svg'
 */
export function imageUrl(src: string, docId: string): string | undefined {
  if (src.startsWith('//') || (!src.startsWith('/') && !isRelative(src))) return undefined
  const path = src.replace(/[?#].*$/, '')
  if (path.startsWith('/')) return decoded(path)
  const base = `http://site.invalid/${docId.split('/').map(encodeURIComponent).join('/')}`
  const resolved = decoded(new URL(path, base).pathname)
  return resolved.startsWith('/content/') ? resolved.slice('/content'.length) : undefined
}

function decoded(path: string): string {
  try { return decodeURI(path) } catch { return path }
}

/**
 * What a <picture> needs to show one image. An image shown as it is (SVG, GIF, the site icons) has
 * its size and address only: no sources, no srcset, no placeholder (it may be transparent).
 */
export interface ImageSet {
  /** Intrinsic size of the source: the <img> reserves its box, so nothing shifts when it arrives. */
  width: number
  height: number
  /** The dominant colour, shown until the image arrives. Example: '#d9c7b8' */
  placeholder?: string
  /** A class that paints the placeholder (rules in the stylesheet: no inline styles). Example: 'ph-9a1376e89b' */
  placeholderClass?: string
  /** Modern formats first; the browser takes the first it supports. Empty for an image shown as it is. */
  sources: { type: string; srcset: string }[]
  /** The source's own format, for browsers without the others. Example: { src: '/images/eyelid.svg' } */
  fallback: { src: string; srcset?: string }
}

/** Attributes of the <img> inside the <picture>; `sizes` says how wide it is shown. */
export function imgAttributes(set: ImageSet, sizes: string) {
  const responsive = set.fallback.srcset ? { srcSet: set.fallback.srcset, sizes } : {}
  return { src: set.fallback.src, ...responsive, width: set.width, height: set.height }
}

/** The stylesheet rules behind every image's placeholder class. */
export function placeholderCss(images: Record<string, ImageSet>): string {
  return Object.values(images).filter((set) => set.placeholderClass)
    .map((set) => `.${set.placeholderClass}{background-color:${set.placeholder}}`).join('\n')
}
