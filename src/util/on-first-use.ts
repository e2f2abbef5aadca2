/**
 * Libraries that a build may not need at all are required on first use: a build that finds all
 * their results in its cache never spends the time to load them (tests/cli.test.ts holds an
 * unchanged rebuild to that).
 */
import { createRequire } from 'node:module'

const load = createRequire(import.meta.url)

/** The package `specifier`, required the first time the returned function is called. */
export function onFirstUse<T>(specifier: string): () => T {
  let library: T | undefined
  return () => (library ??= load(specifier) as T)
}
