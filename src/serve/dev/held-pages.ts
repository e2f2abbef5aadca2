/**
 * Dev's rule for a mistake that belongs to one page (its front matter, a body refused or over its
 * time limit, a link to a page that does not exist, a missing image): that page's file is held at
 * the text it last built with, and the site is built again, so every other page keeps being
 * rebuilt and served. A mistake in what every page reads (the site file, a locale, a template), or
 * one that holding the saved files does not clear, holds the whole site, as any mistake does in the CLI.
 */
import type { Diagnostic, Project, Route, SourceFile } from '../../types.ts'

/** A content file held back: its errors, and the URLs of its pages (built from its last good text). */
export interface HeldPage {
  /** Example: 'content/en/contact.md' */
  file: string
  /** The errors of its text as saved, or, when `breaksOthers`, those its change would cause in other files. */
  diagnostics: Diagnostic[]
  breaksOthers: boolean
  /** Example: ['/contact/'] */
  urls: string[]
}

/** Content files only: a page's own source. */
const PAGE_SOURCE = /^content\/.+\.md$/

/** The errors by the content file each belongs to; undefined when one belongs to no single page. */
export function errorsByPage(diagnostics: Diagnostic[]): Map<string, Diagnostic[]> | undefined {
  const found = new Map<string, Diagnostic[]>()
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue
    if (d.file === undefined || !PAGE_SOURCE.test(d.file)) return undefined
    found.set(d.file, [...found.get(d.file) ?? [], d])
  }
  return found
}

/**
 * The files held in one save's builds, each read at its last good text (left out when it has none,
 * put back when it was removed). First the files with errors of their own; then, when the errors
 * are left in files read as they last built (a page they link to was removed or moved), every
 * file that differs from its last good text, since one of those broke them.
 */
export class Holds {
  private readonly held = new Map<string, Diagnostic[]>()
  private readonly breakers = new Set<string>()
  // Made on the first failure only: a save that builds costs no pass over the site's files.
  private maps: { saved: Map<string, SourceFile>; good: Map<string, SourceFile> } | undefined

  /** `good`: each content file's text when it last built with no error of its own. */
  constructor(private readonly project: Project, private readonly good: readonly SourceFile[]) {}

  get size(): number { return this.held.size }

  /** Takes in a failed build's page errors; false when they give nothing more to hold, so another build would fail alike. */
  add(mistakes: Map<string, Diagnostic[]>): boolean {
    const own = [...mistakes].filter(([file]) => !this.held.has(file) && this.differs(file))
    for (const [file, found] of own) this.held.set(file, found)
    if (own.length > 0) return true
    const breakers = this.changed().filter((file) => !this.held.has(file))
    const broken = [...mistakes.values()].flat()
    for (const file of breakers) {
      this.held.set(file, broken)
      this.breakers.add(file)
    }
    return breakers.length > 0
  }

  /** The content files as the next build reads them: held ones at their last good text, or left out. */
  apply(): Project {
    if (this.held.size === 0) return this.project
    return { ...this.project, content: this.goodFiles() }
  }

  /** After a build that succeeded: each content file's last good text, the held ones' as before. */
  goodFiles(): SourceFile[] {
    if (this.held.size === 0) return this.project.content
    const { good } = this.known()
    const content = this.project.content.filter((file) => !this.held.has(file.path))
    for (const file of this.held.keys()) if (good.has(file)) content.push(good.get(file)!)
    return content.sort((a, b) => (a.path < b.path ? -1 : 1))
  }

  /** The held files, with the URLs of their pages in the build that held them. */
  pages(urlsOf: ReadonlyMap<string, string[]>): HeldPage[] {
    return [...this.held].map(([file, diagnostics]) => ({ file, diagnostics, breaksOthers: this.breakers.has(file), urls: urlsOf.get(file) ?? [] }))
  }

  private known() {
    return (this.maps ??= { saved: byPath(this.project.content), good: byPath(this.good) })
  }

  /** Whether the file as saved (or its removal) differs from its last good text. */
  private differs(file: string): boolean {
    const { saved, good } = this.known()
    return good.get(file)?.text !== saved.get(file)?.text
  }

  /** The content files saved, added or removed since they last built. */
  private changed(): string[] {
    const { saved, good } = this.known()
    return [...new Set([...saved.keys(), ...good.keys()])].filter((file) => this.differs(file))
  }
}

const byPath = (files: readonly SourceFile[]) => new Map(files.map((file) => [file.path, file]))

/** The URLs of each content file's pages in a route table; a page shown in another language counts for the file it shows. */
export function urlsByFile(routes: Route[]): Map<string, string[]> {
  const urls = new Map<string, string[]>()
  for (const route of routes) if (route.docId !== undefined) urls.set(route.docId, [...urls.get(route.docId) ?? [], route.url])
  return urls
}
