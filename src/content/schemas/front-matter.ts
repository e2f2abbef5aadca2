/**
 * Front matter: which fields each kind of page takes. The template is named in front matter or
 * follows from where the file lives (see templateFor).
 */
import type { z } from 'zod'
import { lazySchema } from './lazy.ts'

/**
 * What a field's help text comes with, for the content editor (src/admin/fields.ts): `long` text
 * gets a box of several lines; `refersTo: 'doctors'` a choice among site.yaml's doctors; `format`
 * a date picker or an image chooser.
 */
export interface EditorHints { long?: boolean; refersTo?: 'doctors'; format?: 'date' | 'image' }

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

  // Each field's help text (and, for long text, `long`) is the content editor's too (src/admin/fields.ts).
  const help = <S extends z.ZodType>(schema: S, description: string, more: EditorHints = {}) => schema.meta({ description, ...more })

  const base = {
    title: help(text, 'The page\'s heading, and the first part of its title in search results and browser tabs.'),
    description: help(text.max(200, 'must be at most 200 characters'), 'One or two sentences that search results show under the title (at most 200 characters).', { long: true }),
    template: help(z.enum(['home', 'services', 'service', 'doctor', 'contact', 'thank-you', 'blog-index', 'article', 'page']).optional(), 'Overrides the template that the file\'s folder implies.'),
    // The slug names a folder of the built site, and file systems refuse names over 255 bytes.
    slug: help(z.string().regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and hyphens')
      .max(200, 'must be at most 200 characters').optional(), 'Overrides the last part of the page\'s address, which is otherwise the file name; translations keep the same one.'),
    draft: help(z.boolean().optional(), 'A draft is shown by the preview server but left out of the published site.'),
  }

  const reviewed = {
    reviewedBy: help(doctor, 'The doctor who checked the page\'s medical content.', { refersTo: 'doctors' }),
    reviewedOn: help(date, 'The day that doctor last checked it.', { format: 'date' }),
  }

  /** Only the home page's banner shows an image. */
  const hero = {
    image: help(z.string().regex(/^[^\s:?#]+\.(jpe?g|png|webp)$/i, 'must be a JPEG, PNG or WebP file beside this file, such as lobby.jpg, or under static/, such as /images/lobby.jpg').optional(),
      'The banner image, beside the Markdown file (lobby.jpg) or under static/ (/images/lobby.jpg); needs a description.', { format: 'image' }),
    imageAlt: help(text.optional(), 'What the banner image shows, for people who cannot see it.'),
  }

  return {
    home: z.strictObject({ ...base, ...hero, intro: help(text, 'The sentence beside the banner.', { long: true }) }),
    services: z.strictObject(base),
    service: z.strictObject({
      ...base, ...reviewed,
      summary: help(text, 'One sentence for the service\'s card on the services page and in the menu.', { long: true }),
      order: help(z.number().int().optional(), 'Where the service stands in lists: lower numbers first; without one, by title.'),
    }),
    doctor: z.strictObject({
      ...base,
      name: help(text, 'The doctor\'s full name as registered.'),
      role: help(text, 'The doctor\'s role, such as "Specialist in Plastic Surgery": only titles the registration allows.'),
      qualifications: help(z.array(text).min(1), 'Each qualification as registered with the Singapore Medical Council, one per item.'),
      languages: help(z.array(text).min(1), 'The languages the doctor consults in, one per item.'),
      memberships: help(z.array(text).default([]), 'Professional bodies the doctor belongs to, one per item.'),
    }),
    contact: z.strictObject(base),
    'thank-you': z.strictObject(base),
    'blog-index': z.strictObject(base),
    article: z.strictObject({
      ...base, ...reviewed,
      date: help(date, 'The day the article was first published.', { format: 'date' }),
      author: help(doctor, 'The doctor who wrote it.', { refersTo: 'doctors' }),
      tags: help(z.array(text).min(1), 'Topics, one per item: articles sharing a tag are shown as related.'),
    }),
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
