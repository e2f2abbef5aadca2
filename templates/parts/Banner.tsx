import type { ReactNode } from 'react'
import type { ImageSet } from '../../src/assets/picture.ts'
import { HERO_SIZES, Picture } from './Picture.tsx'

/**
 * The page hero: the page's one h1, an optional lead sentence, actions, and an optional image
 * from the page's front matter. That image is the page's main one, so it loads eagerly and first.
 */
export function Banner({ title, lead, eyebrow, image, children }: {
  title: string
  lead?: string
  eyebrow?: string
  image?: { set: ImageSet; alt: string }
  children?: ReactNode
}) {
  return (
    <div className={image ? 'banner banner--image' : 'banner'}>
      <div className="wrap banner__inner">
        <div className="banner__text">
          {eyebrow && <p className="banner__eyebrow">{eyebrow}</p>}
          <h1>{title}</h1>
          {lead && <p className="banner__lead">{lead}</p>}
          {children}
        </div>
        {image && <Picture className="banner__image" set={image.set} alt={image.alt} sizes={HERO_SIZES} eager />}
      </div>
    </div>
  )
}
