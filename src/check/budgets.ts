/**
 * Byte budgets, measured on what the browser loaded on each page (src/assets/budgets.ts): the site's CSS
 * and JavaScript of every page, and the runtime every page shares, gzipped. Pure: `gzipped` gives
 * the size of a built file.
 */
import { overBudget, type BudgetName } from '../assets/budgets.ts'
import type { Diagnostic } from '../types.ts'
import type { PageVisit } from './browser.ts'

export function budgetFindings(visits: PageVisit[], gzipped: (path: string) => number): Diagnostic[] {
  const found: Diagnostic[] = []
  const report = (name: BudgetName, files: string[], file: string) => {
    const message = overBudget(name, files.reduce((sum, f) => sum + gzipped(f), 0))
    if (message) found.push({ code: `budget/${name}`, severity: 'error', file, message, hint: `Loaded: ${files.join(', ')}. Move code into an island that only the pages using it load, or trim it.` })
  }
  const scriptsOf = (v: PageVisit) => unique(v.loaded.filter((l) => l.type === 'script').map((l) => l.path))
  for (const visit of visits) {
    report('pageJs', scriptsOf(visit), visit.path)
    report('pageCss', unique(visit.loaded.filter((l) => l.type === 'stylesheet').map((l) => l.path)), visit.path)
  }
  // The shared runtime: the scripts every page loads.
  const [first, ...rest] = visits.map(scriptsOf)
  if (first) report('sharedRuntime', first.filter((s) => rest.every((other) => other.includes(s))), visits[0]!.path)
  return found
}

const unique = (items: string[]) => [...new Set(items)]
