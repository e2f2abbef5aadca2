/**
 * What the build knows of each page it wrote and `clinic-build check` cannot see in the HTML: the
 * template that rendered it, its locale, the Markdown file it came from, and the script graph.
 * Written beside the build cache, one file per output folder; a page counts only while its file
 * still has the size and time the write gave it, so a stale or missing manifest makes check
 * thorough, not wrong.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CACHE_DIR } from './cache.ts'
import type { Written } from './write.ts'
import type { Assets, RouteTable, TemplateName } from '../types.ts'

export interface PageFacts {
  /** The file as written (src/build/write.ts): a file with another size or time is not this page. */
  size: number
  mtimeMs: number
  template: TemplateName
  locale: string
  /** The Markdown file the page renders, when it has one. Example: 'content/en/contact.md' */
  source?: string
}

export interface PageManifest {
  assets: Assets
  /** By output path. Example: { 'cn/contact/index.html': { template: 'contact', locale: 'cn', … } } */
  pages: Record<string, PageFacts>
}

export function pageManifest(table: RouteTable, written: Written, assets: Assets): PageManifest {
  const facts: Record<string, PageFacts> = {}
  for (const route of table.routes) {
    const { size, mtimeMs } = written.files.get(route.output)!
    facts[route.output] = { size, mtimeMs, template: route.template, locale: route.locale, ...(route.docId ? { source: route.docId } : {}) }
  }
  return { assets, pages: facts }
}

/** One file per output folder, so that builds into other folders (the dev server's, a benchmark's) do not overwrite it. */
const fileFor = (root: string, out: string) => join(root, CACHE_DIR, `pages-${createHash('sha1').update(resolve(out)).digest('hex').slice(0, 12)}.json`)

export function saveManifest(root: string, out: string, manifest: PageManifest): void {
  mkdirSync(join(root, CACHE_DIR), { recursive: true })
  writeFileSync(fileFor(root, out), JSON.stringify(manifest))
}

/** When the last build into `out` wrote its manifest, or undefined when there is none. */
export const manifestTime = (root: string, out: string): number | undefined => statSync(fileFor(root, out), { throwIfNoEntry: false })?.mtimeMs

/** The manifest of the last build into `out`, or undefined when there is none (or it cannot be read). */
export function loadManifest(root: string, out: string): PageManifest | undefined {
  try {
    return JSON.parse(readFileSync(fileFor(root, out), 'utf8')) as PageManifest
  } catch {
    return undefined
  }
}
