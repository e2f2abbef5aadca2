/**
 * The content editor's configuration, made from the front matter schemas and site.yaml at every
 * build: Decap CMS's configuration (backend, languages, one collection per kind of page and one
 * per single page, each with its fields) and where each collection's files live in content/. Pure.
 */
import { frontMatterSchemas, type TemplateName } from '../content/schemas/front-matter.ts'
import { problem } from '../errors.ts'
import type { Diagnostic, RouteTable, SiteConfig, SourceFile } from '../types.ts'
import { editorFields, type EditorField } from './fields.ts'

/**
 * Where a collection's pages are: in a section folder of each language (content/<locale>/services/)
 * or at the top of it (content/<locale>/), the section's own index page left out.
 */
export type Place = { section: string } | { top: true }

/** A kind of page the editor offers. */
export interface EditorCollection {
  name: string
  label: string
  labelSingular: string
  template: TemplateName
  place: Place
  /** Whether editors may add pages of this kind (a doctor also needs an entry in site.yaml). */
  create: boolean
  description: string
}

/**
 * The kinds of page editors work on. The section names are the folders `templateFor`
 * (src/content/schemas/front-matter.ts) reads a template from; a test holds them to it.
 */
export const EDITOR_COLLECTIONS: EditorCollection[] = [
  { name: 'services', label: 'Services', labelSingular: 'Service', template: 'service', place: { section: 'services' }, create: true,
    description: 'One page per treatment, in every language, reviewed by a doctor.' },
  { name: 'doctors', label: 'Doctors', labelSingular: 'Doctor', template: 'doctor', place: { top: true }, create: false,
    description: 'One profile per doctor listed in site.yaml: a new doctor is added there first.' },
  { name: 'pages', label: 'Pages', labelSingular: 'Page', template: 'page', place: { top: true }, create: true,
    description: 'Plain pages such as the privacy notice.' },
  { name: 'articles', label: 'Articles', labelSingular: 'Article', template: 'article', place: { section: 'blog' }, create: true,
    description: 'Blog articles, each reviewed by a doctor.' },
]

/**
 * The pages of which a language has one each: their place in a language's folder and their
 * template. Each is a collection of one page (Decap keeps translations side by side only in folder
 * collections, and a folder collection has one set of fields); the blog's page is in the blog's
 * languages only.
 */
export const SITE_PAGES: { name: string; label: string; template: TemplateName; file: string }[] = [
  { name: 'home-page', label: 'Home page', template: 'home', file: 'index.md' },
  { name: 'services-page', label: 'Services page', template: 'services', file: 'services/index.md' },
  { name: 'contact-page', label: 'Contact page', template: 'contact', file: 'contact.md' },
  { name: 'thank-you-page', label: 'Thank-you page', template: 'thank-you', file: 'thank-you.md' },
  { name: 'blog-page', label: 'Blog page', template: 'blog-index', file: 'blog/index.md' },
]

/** The one file of a single page's collection, in Decap's layout. */
export const SINGLE_PAGE_FILE = 'page.md'

/** How the browser maps a collection's files between Decap's layout and content/'s (src/editor/layout.ts). */
export interface CollectionLayout {
  collection: string
  /** Decap's folder: content/<collection>/<locale>/<file>. */
  folder: string
  place: Place
  locales: string[]
  template: TemplateName
  /** For pages at the top of a locale: the file names that belong to this collection only, or never. */
  only?: string[]
  except?: string[]
  /** A collection of one page: its file in Decap's folder, and the file it is in a language's folder. Example: { 'page.md': 'index.md' } */
  files?: Record<string, string>
}

export interface AdminConfig {
  /** Decap CMS's configuration object (CMS.init({ config })). */
  decap: DecapConfig
  layout: CollectionLayout[]
  /** Where `clinic-build dev` answers the editor's local backend. */
  localBackend: string
}

export interface DecapConfig {
  load_config_file: false
  backend: Record<string, string>
  publish_mode: 'editorial_workflow'
  site_url: string
  display_url: string
  locale: string
  media_folder: string
  public_folder: string
  slug: { encoding: 'ascii'; clean_accents: true; sanitize_replacement: '-' }
  i18n: { structure: 'multiple_folders'; locales: string[]; default_locale: string }
  collections: DecapCollection[]
}

export interface DecapCollection {
  name: string
  label: string
  label_singular: string
  description: string
  folder: string
  extension: 'md'
  format: 'frontmatter'
  create: boolean
  slug: string
  identifier_field: 'title'
  summary: string
  i18n: true | { locales: string[]; default_locale: string }
  fields: EditorField[]
}

const BODY: EditorField = {
  name: 'body', label: 'Text', widget: 'markdown', required: false, i18n: true,
  hint: 'The page\'s text in Markdown: ## for a section heading, - for a list item, [words](/contact/) for a link.',
}

/** The path `clinic-build dev` serves Decap's local backend at (src/serve/dev/cms-backend.ts). */
export const LOCAL_BACKEND_PATH = '/__clinic/cms/api/v1'

/** Where the editor keeps uploaded images, in the site folder; the site serves them at /images/. */
export const MEDIA_FOLDER = 'static/images'

/** The folder of the built site the editor is written to. */
export const ADMIN_DIR = 'admin'

export function adminConfig(site: SiteConfig): AdminConfig | undefined {
  if (!site.admin.enabled) return undefined
  const schemas = frontMatterSchemas()
  const allLocales = site.locales.map((l) => l.code)
  const doctors = site.doctors.map((d) => `${d.slug}.md`)
  const localesOf = (section: string | undefined) => {
    const single = section ? site.singleLocaleSections[section] : undefined
    return { locales: single ? [single] : allLocales, i18n: single ? { locales: [single], default_locale: single } : true as const }
  }
  const topPages = SITE_PAGES.filter((p) => !p.file.includes('/')).map((p) => p.file)
  // Every collection is a folder of its own in Decap, of Markdown files with front matter named by their title.
  const decapCollection = (c: Omit<EditorCollection, 'place'>, i18n: DecapCollection['i18n']): DecapCollection => ({
    name: c.name, label: c.label, label_singular: c.labelSingular, description: c.description,
    folder: `content/${c.name}`, extension: 'md', format: 'frontmatter', create: c.create,
    slug: '{{slug}}', identifier_field: 'title', summary: '{{title}}', i18n, fields: [...editorFields(schemas[c.template], site), BODY],
  })
  const kinds = EDITOR_COLLECTIONS.map((c) => {
    const { locales, i18n } = localesOf('section' in c.place ? c.place.section : undefined)
    const decap = decapCollection(c, i18n)
    const layout: CollectionLayout = {
      collection: c.name, folder: decap.folder, place: c.place, locales, template: c.template,
      ...(c.name === 'doctors' ? { only: doctors } : {}),
      ...(c.name === 'pages' ? { except: [...doctors, ...topPages] } : {}),
    }
    return { decap, layout }
  })
  const singles = SITE_PAGES.map((p) => {
    const { locales, i18n } = localesOf(p.file.includes('/') ? p.file.split('/')[0] : undefined)
    const description = `The ${p.label.toLowerCase()}, in each of its languages.`
    const decap = decapCollection({ name: p.name, label: p.label, labelSingular: p.label, description, create: false, template: p.template }, i18n)
    const layout: CollectionLayout = {
      collection: p.name, folder: decap.folder, place: { top: true }, locales, template: p.template, files: { [SINGLE_PAGE_FILE]: p.file },
    }
    return { decap, layout }
  })
  const collections = [...kinds, ...singles]
  const { backend } = site.admin
  return {
    decap: {
      load_config_file: false,
      backend: backend.name === 'github'
        ? { name: 'github', repo: backend.repo, branch: backend.branch, ...(backend.authUrl ? { base_url: backend.authUrl } : {}) }
        : { name: 'git-gateway', branch: backend.branch },
      publish_mode: 'editorial_workflow',
      site_url: site.baseUrl,
      display_url: site.baseUrl,
      locale: 'en',
      media_folder: MEDIA_FOLDER,
      public_folder: '/images',
      slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
      i18n: { structure: 'multiple_folders', locales: allLocales, default_locale: site.defaultLocale },
      collections: collections.map((c) => c.decap),
    },
    layout: collections.map((c) => c.layout),
    localBackend: LOCAL_BACKEND_PATH,
  }
}

/**
 * Pages whose address is the editor's folder: an AdminUrlTaken error at the line of their `slug`,
 * or at the top of the file when its name makes the address.
 */
export function adminClashes(table: RouteTable, sources: SourceFile[]): Diagnostic[] {
  return table.routes.filter((r) => r.output.startsWith(`${ADMIN_DIR}/`)).map((route) => {
    const text = sources.find((f) => f.path === route.docId)?.text ?? ''
    const slugLine = text.split('\n').findIndex((line) => /^slug:/.test(line))
    return problem('AdminUrlTaken', [route.url], { file: route.docId, line: slugLine === -1 ? 1 : slugLine + 1 })
  })
}
