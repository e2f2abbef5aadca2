/** What each check judged, as the terminal shows it after the findings. Pure. */
import type { CheckName } from './names.ts'

/** How much of the site a check judged, and how. */
export interface CheckCount {
  /** Pages (or, for compliance, sources and pages) judged from the files, without a browser. */
  judged: number
  /** Pages opened in Chromium. */
  browser: number
  /** Pages skipped: unchanged since a run that judged them. */
  unchanged: number
  /** Milliseconds. */
  ms: number
}

/**
 * One line per check. Example:
 *   links          12 judged from the files, 1088 unchanged                         0.3 s
 */
export function formatCounts(counts: Partial<Record<CheckName, CheckCount>>): string {
  return Object.entries(counts).map(([name, c]) => {
    const parts = [
      c.judged ? `${c.judged} judged from the files` : '',
      c.browser ? `${c.browser} opened in the browser` : '',
      c.unchanged ? `${c.unchanged} unchanged` : '',
    ].filter(Boolean).join(', ') || 'nothing to judge'
    return `${name.padEnd(15)}${parts.padEnd(72)}${(c.ms / 1000).toFixed(1).padStart(6)} s`
  }).join('\n')
}
