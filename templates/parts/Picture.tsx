import { imgAttributes, type ImageSet } from '../../src/assets/picture.ts'

/**
 * A processed image: AVIF and WebP sources, the original format as fallback, intrinsic size so
 * nothing shifts, and its dominant colour until it arrives. `eager` is for the hero image only.
 */
export function Picture({ set, alt, sizes, eager = false, className }: { set: ImageSet; alt: string; sizes: string; eager?: boolean; className?: string }) {
  return (
    <picture className={className}>
      {set.sources.map((s) => <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />)}
      <img
        {...imgAttributes(set, sizes)} alt={alt} decoding="async"
        loading={eager ? 'eager' : 'lazy'} fetchPriority={eager ? 'high' : undefined}
        className={set.placeholderClass}
      />
    </picture>
  )
}

/** How wide the hero image is shown: beside the heading on wide screens, full width on phones. */
export const HERO_SIZES = '(min-width: 64rem) 30rem, 100vw'
