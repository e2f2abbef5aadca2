/** Accessibility findings from the browser visit: each axe-core rule broken on a page, and any blocked code. Pure. */
import type { Diagnostic } from '../types.ts'
import type { PageVisit } from './browser.ts'

export function accessibilityFindings(visits: PageVisit[]): Diagnostic[] {
  return visits.flatMap((visit) => [
    ...visit.violations.map((v): Diagnostic => ({
      code: `axe/${v.id}`, severity: 'error', file: visit.path,
      message: `${v.help} (${v.targets.slice(0, 3).join(', ')}${v.targets.length > 3 ? ', …' : ''})`,
      hint: `How to fix it: ${v.helpUrl}`,
    })),
    ...[...new Set(visit.blocked)].map((what): Diagnostic => ({
      code: 'CspViolation', severity: 'error', file: visit.path, message: `The Content-Security-Policy ${what}.`,
      hint: 'Inline scripts and styles are not allowed; load code from the site itself or a source listed in the policy.',
    })),
  ])
}
