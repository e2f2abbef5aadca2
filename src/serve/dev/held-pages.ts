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
  private readonly saved: Map<string, SourceFile>

  constructor(private readonly project: Project, private readonly good: ReadonlyMap<string, SourceFile>) {
    this.saved = new Map(project.content.map((file) => [file.path, file]))
  }

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

  /** The project as the next build reads it. */
  apply(): Project {
    if (this.held.size === 0) return this.project
    const content = this.project.content.filter((file) => !this.held.has(file.path))
    for (const file of this.held.keys()) {
      const good = this.good.get(file)
      if (good) content.push(good)
    }
    return { ...this.project, content: content.sort((a, b) => (a.path < b.path ? -1 : 1)) }
  }

  isHeld = (file: string): boolean => this.held.has(file)

  /** Every content file the builds know of: as saved, and held ones removed from the disk. */
  files = (): string[] => [...new Set([...this.saved.keys(), ...this.held.keys()])]

  /** The held files, with the URLs of their pages in the build that held them. */
  pages(urlsOf: ReadonlyMap<string, string[]>): HeldPage[] {
    return [...this.held].map(([file, diagnostics]) => ({ file, diagnostics, breaksOthers: this.breakers.has(file), urls: urlsOf.get(file) ?? [] }))
  }

  /** Whether the file as saved (or its removal) differs from its last good text. */
  private differs(file: string): boolean {
    return this.good.get(file)?.text !== this.saved.get(file)?.text
  }

  /** The content files saved, added or removed since they last built. */
  private changed(): string[] {
    const paths = new Set([...this.saved.keys(), ...this.good.keys()])
    return [...paths].filter((file) => this.differs(file))
  }
}

/** The URLs of each content file's pages in a route table; a page shown in another language counts for the file it shows. */
export function urlsByFile(routes: Route[]): Map<string, string[]> {
  const urls = new Map<string, string[]>()
  for (const route of routes) if (route.docId !== undefined) urls.set(route.docId, [...urls.get(route.docId) ?? [], route.url])
  return urls
}
