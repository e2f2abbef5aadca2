/**
 * The byte budgets of a page, gzipped: one definition shared by the build summary (which sizes
 * each page type from the built files) and `clinic-build check` (which measures what a browser
 * actually loads on every page).
 */
import { gzipSync } from 'node:zlib'

export interface Budget {
  /** Bytes after gzip. */
  limit: number
  /** What is measured, for messages: "JavaScript every page loads". */
  label: string
}

export const budgets = {
  /** The runtime: the entry script and the chunks every page loads with it. */
  sharedRuntime: { limit: 8 * 1024, label: 'shared runtime JavaScript (loaded by every page)' },
  /** All JavaScript one page loads, its islands included. */
  pageJs: { limit: 25 * 1024, label: 'JavaScript of one page' },
  /** All of the site's own CSS one page loads (the font service's stylesheet is not counted). */
  pageCss: { limit: 20 * 1024, label: 'CSS of one page' },
} as const satisfies Record<string, Budget>

export type BudgetName = keyof typeof budgets

/** Size of a file's contents after gzip, as a host that compresses would send it. */
export function gzipSize(contents: string | Uint8Array): number {
  return gzipSync(contents).length
}

/** The message when `bytes` exceed a budget, or undefined when they fit. */
export function overBudget(name: BudgetName, bytes: number): string | undefined {
  const { limit, label } = budgets[name]
  return bytes > limit ? `${label} is ${kb(bytes)} gzipped, over its budget of ${kb(limit)}.` : undefined
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
