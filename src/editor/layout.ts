/**
 * Two ways of laying out the same files. Decap CMS keeps a page's translations side by side as
 * <collection folder>/<locale>/<file> ("multiple_folders", its only layout with one file per
 * language); the site keeps them as content/<locale>/<section>/<file>. Every path the editor and
 * its backend exchange is turned from one into the other here:
 *
 *   content/services/cn/ear.md   <->  content/cn/services/ear.md
 *   content/doctors/en/dr-x.md   <->  content/en/dr-x.md
 *   content/home-page/cn/page.md <->  content/cn/index.md
 *
 * Paths outside the collections (static/images/…) are left as they are. Pure.
 */
import type { CollectionLayout } from '../admin/config.ts'

export interface Layout {
  /** Decap's path -> the site's; unchanged when it is no collection's. */
  toSite: (path: string) => string
  /** The site's path -> Decap's, or undefined when no collection holds the file. */
  toEditor: (path: string, text?: string) => string | undefined
  /** The folders of the site to list for a collection's folder in Decap, each with its locale. */
  foldersOf: (folder: string) => { folder: string; locale: string }[] | undefined
  /** For a collection of one page: that page's file in each language, as the site's and Decap's paths. */
  pageOf: (folder: string) => { site: string; editor: string }[] | undefined
}

export function layoutOf(collections: CollectionLayout[]): Layout {
  const byFolder = new Map(collections.map((c) => [c.folder, c]))
  const siteFolder = (c: CollectionLayout, locale: string) => ('section' in c.place ? `content/${locale}/${c.place.section}` : `content/${locale}`)
  /** Every file of the collections of one page, by its collection's folder, as Decap's path and the site's. */
  const pages = collections.flatMap((c) => c.locales.flatMap((locale) => Object.entries(c.files ?? {})
    .map(([file, real]) => ({ folder: c.folder, editor: `${c.folder}/${locale}/${file}`, site: `content/${locale}/${real}` }))))
  const pageToSite = new Map(pages.map((p) => [p.editor, p.site]))
  const pageToEditor = new Map(pages.map((p) => [p.site, p.editor]))

  const toSite = (path: string) => {
    const m = /^(content\/[^/]+)\/([^/]+)\/(.+)$/.exec(path)
    const c = m && byFolder.get(m[1]!)
    if (!c || !c.locales.includes(m[2]!)) return path
    return c.files ? pageToSite.get(path) ?? path : `${siteFolder(c, m[2]!)}/${m[3]}`
  }

  /** Whether a file in a collection's site folder is one of its pages (the folder may hold other kinds). */
  const holds = (c: CollectionLayout, file: string, text?: string) => {
    if (!file.endsWith('.md') || file === 'index.md' || file.includes('/')) return false
    if (c.only && !c.only.includes(file)) return false
    if (c.except?.includes(file)) return false
    // A page at the top of a language may name its template (contact, thank-you): it belongs to that kind.
    const named = text === undefined ? undefined : /^---\r?\n(?:[\s\S]*?\n)?template:\s*["']?([\w-]+)/.exec(text)?.[1]
    return named === undefined || named === c.template
  }

  const toEditor = (path: string, text?: string) => {
    const page = pageToEditor.get(path)
    if (page) return page
    for (const c of collections.filter((c) => !c.files)) {
      for (const locale of c.locales) {
        const folder = `${siteFolder(c, locale)}/`
        if (path.startsWith(folder) && holds(c, path.slice(folder.length), text)) return `${c.folder}/${locale}/${path.slice(folder.length)}`
      }
    }
    return undefined
  }

  const foldersOf = (folder: string) => {
    const c = byFolder.get(folder)
    return c && !c.files ? c.locales.map((locale) => ({ folder: siteFolder(c, locale), locale })) : undefined
  }

  const pageOf = (folder: string) => (byFolder.get(folder)?.files ? pages.filter((p) => p.folder === folder) : undefined)

  return { toSite, toEditor, foldersOf, pageOf }
}
