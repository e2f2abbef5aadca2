/**
 * Front matter: which fields each kind of page takes. The template is named in front matter or
 * follows from where the file lives (see templateFor).
 */
import type { z } from 'zod'
import { lazySchema } from './lazy.ts'

/** Names of the page templates in templates/. */
export type TemplateName =
  | 'home' | 'services' | 'service' | 'doctor' | 'contact' | 'thank-you'
  | 'blog-index' | 'article' | 'page' | 'not-found'

/** The schema of each kind of page, made on first use (./lazy.ts). */
export const frontMatterSchemas = lazySchema((z): Record<TemplateName, z.ZodObject> => {
  const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'is not a real date')
  const text = z.string().trim().min(1, 'must not be empty')
  const doctor = z.string().regex(/^dr-[a-z0-9-]+$/, 'must be a doctor\'s slug such as dr-evelyn-quah')

  const base = {
    /** The page's heading and the first part of its <title>. */
    title: text,
    /** The meta description: one or two sentences for search results. */
    description: text.max(200, 'must be at most 200 characters'),
    /** Overrides the template that the file's folder implies. */
    template: z.enum(['home', 'services', 'service', 'doctor', 'contact', 'thank-you', 'blog-index', 'article', 'page']).optional(),
    /** Overrides the last part of the URL, which is otherwise the file name. */
    // The slug names a folder of the built site, and file systems refuse names over 255 bytes.
    slug: z.string().regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and hyphens')
      .max(200, 'must be at most 200 characters').optional(),
    /** Drafts are left out of production builds. */
    draft: z.boolean().optional(),
  }

  const reviewed = { reviewedBy: doctor, reviewedOn: date }

  /** Only the home page's banner shows an image. */
  const hero = {
    /** The hero image, beside the Markdown file (lobby.jpg) or under static/ (/images/lobby.jpg); needs imageAlt. */
    image: z.string().regex(/^[^\s:?#]+\.(jpe?g|png|webp)$/i, 'must be a JPEG, PNG or WebP file beside this file, such as lobby.jpg, or under static/, such as /images/lobby.jpg').optional(),
    /** What the hero image shows, for people who cannot see it. */
    imageAlt: text.optional(),
  }

  return {
    home: z.strictObject({ ...base, ...hero, intro: text }),
    services: z.strictObject(base),
    service: z.strictObject({ ...base, ...reviewed, summary: text, order: z.number().int().optional() }),
    doctor: z.strictObject({
      ...base, name: text, role: text,
      qualifications: z.array(text).min(1), languages: z.array(text).min(1), memberships: z.array(text).default([]),
    }),
    contact: z.strictObject(base),
    'thank-you': z.strictObject(base),
    'blog-index': z.strictObject(base),
    article: z.strictObject({ ...base, ...reviewed, date, author: doctor, tags: z.array(text).min(1) }),
    page: z.strictObject(base),
    'not-found': z.strictObject(base),
  }
})

/** Every field any kind of page may carry; templates read the ones their kind requires. */
export interface FrontMatter {
  title: string
  description: string
  template?: TemplateName
  slug?: string
  draft?: boolean
  image?: string
  imageAlt?: string
  intro?: string
  summary?: string
  order?: number
  reviewedBy?: string
  reviewedOn?: string
  date?: string
  author?: string
  tags?: string[]
  name?: string
  role?: string
  qualifications?: string[]
  languages?: string[]
  memberships?: string[]
}

/**
 * The template a file gets when its front matter names none:
 * - `index.md` at the top of a locale: home
 * - `services/index.md`: services; other files in `services/`: service
 * - `blog/index.md`: blog-index; other files in `blog/`: article
 * - anything else: page
 */
export function templateFor(path: string): TemplateName {
  const parts = path.split('/').filter(Boolean)
  if (parts.length === 0) return 'home'
  if (parts[0] === 'services') return parts.length === 1 ? 'services' : 'service'
  if (parts[0] === 'blog') return parts.length === 1 ? 'blog-index' : 'article'
  return 'page'
}
