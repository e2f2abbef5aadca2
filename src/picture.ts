/** How a processed image (src/images.ts) is shown: shared by the templates and Markdown. */

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
