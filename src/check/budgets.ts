/**
 * Byte budgets (src/assets/budgets.ts): the site's CSS and JavaScript of every page, and the
 * runtime every page shares, gzipped. What a page loads is read from its HTML (its digest,
 * ./digest.ts) and the build's script graph (`staticLoads`), or from what the browser loaded on a
 * visit. Pure: `gzipped` gives the size of a built file.
 */
import { pageScripts } from '../assets/script-graph.ts'
import { overBudget, type BudgetName } from '../assets/budgets.ts'
import type { Assets, Diagnostic } from '../types.ts'
import type { PageVisit } from './browser.ts'
import type { PageDigest } from './digest.ts'

type Loads = Pick<PageVisit, 'path' | 'loaded'>

/**
 * The site's own scripts and stylesheets a page loads, as a browser would: the runtime, the
 * scripts of the islands its HTML marks, and its stylesheet links. Sorted, paths without the leading /.
 */
export function staticLoads(page: Pick<PageDigest, 'islands' | 'stylesheets'>, assets: Assets): PageVisit['loaded'] {
  const scripts = pageScripts(assets, page.islands)
  return [
    ...[...new Set(scripts)].sort().map((path) => ({ path: path.slice(1), type: 'script' as const })),
    ...[...new Set(page.stylesheets)].sort().map((path) => ({ path: path.slice(1), type: 'stylesheet' as const })),
  ]
}

/** Findings of pages over a budget; `shared` also judges the scripts every page among them loads. */
export function budgetFindings(visits: Loads[], gzipped: (path: string) => number, shared = true): Diagnostic[] {
  const found: Diagnostic[] = []
  const report = (name: BudgetName, files: string[], file: string) => {
    const message = overBudget(name, files.reduce((sum, f) => sum + gzipped(f), 0))
    if (message) found.push({ code: `budget/${name}`, severity: 'error', file, message, hint: `Loaded: ${files.join(', ')}. Move code into an island that only the pages using it load, or trim it.` })
  }
  const scriptsOf = (v: Loads) => unique(v.loaded.filter((l) => l.type === 'script').map((l) => l.path))
  for (const visit of visits) {
    report('pageJs', scriptsOf(visit), visit.path)
    report('pageCss', unique(visit.loaded.filter((l) => l.type === 'stylesheet').map((l) => l.path)), visit.path)
  }
  // The shared runtime: the scripts every page loads.
  const [first, ...rest] = visits.map(scriptsOf)
  if (first && shared) report('sharedRuntime', first.filter((s) => rest.every((other) => other.includes(s))), visits[0]!.path)
  return found
}

const unique = (items: string[]) => [...new Set(items)]
