/**
 * Which JavaScript files a page loads, read from esbuild's metafile: the runtime (the entry
 * script and everything it imports statically) on every page, plus, for each island the page
 * uses, the island's chunk and what that imports statically. Pure.
 *
 *   scriptGraph(metafile, 'src/client/main.ts', 'src/client/islands/')
 *   -> { runtime: ['assets/main.X.js'], islands: { carousel: ['assets/chunks/carousel.Y.js'], … } }
 *
 * An island's name is its module's file name (src/client/islands/<name>.ts), as in the registry.
 */
import type { Metafile } from 'esbuild'
import type { Assets } from '../types.ts'

export interface ScriptGraph {
  /** Output paths every page loads. */
  runtime: string[]
  /** Output paths each island adds, beyond the runtime. */
  islands: Record<string, string[]>
}

export function scriptGraph(metafile: Metafile, entry: string, islandsDir: string): ScriptGraph {
  const outputs = Object.entries(metafile.outputs)
  /** The output and every output it imports statically, transitively. */
  const withStaticImports = (start: string): string[] => {
    const seen = new Set<string>()
    const visit = (path: string) => {
      if (seen.has(path)) return
      seen.add(path)
      for (const i of metafile.outputs[path]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path)
    }
    visit(start)
    return [...seen]
  }
  const entryOutput = outputs.find(([, o]) => o.entryPoint === entry)?.[0]
  const runtime = entryOutput ? withStaticImports(entryOutput) : []
  const islands: Record<string, string[]> = {}
  for (const [path, output] of outputs) {
    const source = output.entryPoint
    if (!source?.startsWith(islandsDir) || !path.endsWith('.js')) continue
    const name = source.slice(islandsDir.length).replace(/\.[jt]sx?$/, '')
    islands[name] = withStaticImports(path).filter((p) => !runtime.includes(p))
  }
  return { runtime, islands }
}

/** The islands a page's HTML marks, sorted, each once. Example: ['accordion', 'tabs'] */
export function islandsOf(html: string): string[] {
  return [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!))].sort()
}

/** The script URLs a page with these islands loads: the runtime, then each island's own. */
export function pageScripts(assets: Assets, islands: string[]): string[] {
  return [...assets.runtime, ...islands.flatMap((island) => assets.islands[island] ?? [])]
}
