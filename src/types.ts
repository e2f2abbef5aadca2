/**
 * The data that flows between the build stages. Read this file first: it is the map of the program.
 *
 *   read -> parse & validate -> routes -> render -> write
 *   Project -> Doc[] -> RouteTable -> OutputFile[] -> files on disk
 */
import type { SiteConfig, LocaleConfig } from './content/schemas/site.ts'
import type { FrontMatter, TemplateName } from './content/schemas/front-matter.ts'

export type { SiteConfig, LocaleConfig, FrontMatter, TemplateName }

/** A text file read from the site folder. Example: { path: 'content/cn/contact.md', text: '---\n…' } */
export interface SourceFile {
  /** Path relative to the site root, with forward slashes. */
  path: string
  /** UTF-8 with "\n" line endings, whatever the file was saved as (src/content/text.ts); '' with a problem. */
  text: string
  /** Why the file could not be read as text (NotUtf8, Unreadable, MissingFile). */
  problem?: Diagnostic
}

/** Everything the build reads from disk, before any parsing. */
export interface Project {
  /** The site folder (absolute). */
  root: string
  /** content/site.yaml */
  siteFile: SourceFile
  /** content/<locale>/**\/*.md */
  content: SourceFile[]
  /** locales/*.yaml */
  localeFiles: SourceFile[]
  /** Files under static/, relative to static/. Copied verbatim. */
  staticFiles: string[]
  /** Size and modification time of each static file, by its path relative to static/. Example: { 'favicon.svg': '1234-1763900000000' } */
  staticVersions: Record<string, string>
  /**
   * Images under content/ (beside the Markdown that shows them), relative to content/. Published
   * at the same path, as static/ files are: 'en/blog/timeline.png' -> /en/blog/timeline.png
   */
  contentImages: string[]
  /** Size and modification time of each content image, as staticVersions. */
  contentImageVersions: Record<string, string>
  /** Template sources (relative to the package), scanned for the message keys they ask for. */
  templateFiles: SourceFile[]
  /** The stylesheets under templates/styles/ (relative to the package). */
  styleFiles: SourceFile[]
  /** What reading found besides the files' own problems: links to folders, which it does not follow. */
  problems: Diagnostic[]
}

/** One Markdown file, parsed and validated. */
export interface Doc {
  /** The source path, unique. Example: 'content/en/services/ear.md' */
  id: string
  /** Locale code from the first folder under content/. Example: 'cn' */
  locale: string
  /** Locale-neutral route path. Example: '/services/ear/' */
  path: string
  template: TemplateName
  data: FrontMatter
  /** The Markdown body, parsed where a page renders it (src/markdown/body.ts). */
  markdown: string
  /** Line of the file where the body starts (1-based), for messages about the body. */
  bodyLine: number
  /** Content hash of the whole file: the build cache's key for what is derived from it. */
  hash: string
}

/** A Doc's body as a shard receives it. */
export type BodySource = Pick<Doc, 'id' | 'markdown' | 'bodyLine'>

/** What checks across files need to know of a body, without its syntax tree. */
export interface BodyFacts {
  /** Every link and link definition, as written. Example: { url: '/contact/', line: 12, column: 5 } */
  links: { url: string; line?: number; column?: number }[]
  /** Every image, as written (image references resolved). Example: { url: '/images/eyelid.svg', line: 20, column: 1 } */
  images: { url: string; line?: number; column?: number }[]
  /** Problems found in the body, such as images without alt text. */
  diagnostics: Diagnostic[]
}

/** One page we emit. Example: { url: '/cn/services/ear/', locale: 'cn', template: 'service', … } */
export interface Route {
  url: string
  locale: string
  /** Locale-neutral path, shared by a page and its translations. Example: '/services/ear/' */
  path: string
  template: TemplateName
  /** The Doc this page renders; absent for generated pages (404). */
  docId?: string
  /** URL of this page in every locale it exists in, itself included. Example: { en: '/contact/', cn: '/cn/contact/' } */
  alternates: Record<string, string>
  status: 200 | 404
  /** Path of the written file, relative to the output folder. Example: 'cn/services/ear/index.html' */
  output: string
  /** Set on a draft page (built only for the dev server's preview). */
  draft?: boolean
  /** Set when the page shows another locale's content because its translation is missing (dev only). */
  contentLocale?: string
  /** For paginated listings: this page's number (1-based) and the doc ids it lists. */
  page?: { number: number; count: number; items: string[] }
}

export interface RouteTable {
  /** Sorted by URL. */
  routes: Route[]
  byUrl: ReadonlyMap<string, Route>
}

/** A file to be written, relative to the output folder. */
export interface OutputFile {
  path: string
  contents: string | Uint8Array
  /**
   * A string that changes whenever `contents` do, when one is known without reading them: a page
   * from the build cache carries its hash. Without one the writer hashes the contents.
   */
  version?: string
  /** A file on disk holding `contents`: the writer copies it instead of reading it into memory. */
  source?: string
}

/** The flattened message set of one locale. Example: { 'nav.home': 'Home' } */
export type Messages = Record<string, string>

/** A problem found in the site's files. */
export interface Diagnostic {
  /** Stable name from the catalogue in errors.ts. Example: 'InvalidFrontMatter' */
  code: string
  severity: 'error' | 'warning'
  message: string
  hint?: string
  file?: string
  line?: number
  column?: number
}

/** Built asset URLs that templates link to. */
export interface Assets {
  stylesheet: string
  scripts: string[]
  /** Every script URL each page loads: `scripts` and what they import statically (the shared runtime). */
  runtime: string[]
  /** The script URLs an island adds to a page that uses it, by island name. Example: { carousel: ['/assets/chunks/carousel.X.js'] } */
  islands: Record<string, string[]>
}
