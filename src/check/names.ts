/** The checks of `clinic-build check`, in the order they run; kept apart so the CLI can list them without loading the checks. */
export const CHECKS = ['translations', 'compliance', 'hosts', 'links', 'structured-data', 'accessibility', 'budgets'] as const
export type CheckName = (typeof CHECKS)[number]
