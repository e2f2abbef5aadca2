/** What build() is asked (BuildOptions) and what it answers (BuildResult). */
import type { Diagnostic, OutputFile, Project, RouteTable } from '../types.ts'
import type { BuildCache } from './cache.ts'
import type { Summary } from './summary.ts'

export interface BuildOptions {
  /** The site folder holding content/, locales/ and static/. Default: the current directory. */
  root?: string
  /** The output folder. Default: dist */
  out?: string
  /** Write the output folder (default) or only return the files. */
  write?: boolean
  /** Include pages marked `draft: true` (the dev server does). */
  drafts?: boolean
  /** Show a page whose translation is missing in the other language, with a warning (the dev server does). */
  translationFallback?: boolean
  /**
   * Re-use what earlier builds derived from unchanged inputs: `true` (default when writing) keeps
   * the cache in .clinic/cache; a cache object (`emptyCache()`) keeps it in memory across calls.
   */
  cache?: boolean | BuildCache
  /** Called as pages render, for a progress indicator. */
  onProgress?: (done: number, total: number) => void
  /** Worker threads for parsing and rendering; 0 renders in this thread. Default: one per core for large sites. */
  threads?: number
  /** The sources, already read (the dev server re-reads only the files a save changed). */
  project?: Project
}

export interface BuildResult {
  ok: boolean
  diagnostics: Diagnostic[]
  table?: RouteTable
  /**
   * Every generated file (static/ files are copied as they are and not listed; images under
   * content/ are listed); none when `upToDate`.
   */
  files: OutputFile[]
  summary?: Summary
  /** Wall-clock milliseconds per stage, and `total`. */
  timings: Record<string, number>
  /** CPU milliseconds spent parsing, rendering and minifying, summed over all threads. */
  work?: { parse: number; render: number; minify: number; threads: number }
  /** Pages whose HTML came from the build cache, and pages rendered. */
  pages?: { reused: number; rendered: number }
  /**
   * The inputs were those of the last build into this output folder, which is as that build left
   * it: nothing was done, and the report is that build's (src/build/last-build.ts).
   */
  upToDate?: boolean
  /**
   * Only Markdown bodies changed: the last build was patched, kept in memory (src/build/body-edits.ts)
   * or as the output folder it wrote (src/build/written-site.ts).
   */
  patched?: true
}
