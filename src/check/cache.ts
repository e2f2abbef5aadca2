/**
 * The check cache (.clinic/cache/check.json): what a check found on an input it judged before, by
 * a hash of that input and of the check code. A page that passed and has not changed is not
 * judged again. `check --all` does not read it, and writes what it finds.
 */
import { createRequire } from 'node:module'
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CACHE_DIR, codeVersion } from '../build/cache.ts'
import { readCode } from '../content/read.ts'
import { hashOf } from '../util/memo.ts'
import type { Diagnostic } from '../types.ts'

/** What one judgement found: its findings (none is a pass) and, for links, the other sites linked to. */
export interface Judgement { findings: Diagnostic[]; external?: string[] }

/**
 * Judges one piece of input, or answers from the check cache when the same input (named by `key`,
 * which holds its hash) was judged before. What it returns must survive JSON.
 */
export type Remember = <T>(key: string, judge: () => T) => T
/** Without a cache: every piece judged. */
export const judgeNow: Remember = (_key, judge) => judge()

export class CheckCache {
  private readonly used = new Map<string, unknown>()

  constructor(private readonly stored: ReadonlyMap<string, unknown>) {}

  /** The stored judgement of `key`, kept for the next run; undefined when there is none. */
  get<T = Judgement>(key: string): T | undefined {
    const found = this.stored.get(key) as T | undefined
    if (found !== undefined) this.used.set(key, found)
    return found
  }

  set(key: string, judgement: unknown): void {
    this.used.set(key, judgement)
  }

  /** A Remember over this cache that counts what it judged and what it found unchanged. */
  remembering(count: { judged: number; unchanged: number }): Remember {
    return <T>(key: string, judge: () => T): T => {
      const known = this.get<T>(key)
      if (known !== undefined) { count.unchanged++; return known }
      count.judged++
      const judged = judge()
      this.set(key, judged)
      return judged
    }
  }

  /**
   * The entries this run read or made, so the file follows the site and does not grow; with
   * `keepOthers` (a run of some checks only) the other checks' entries as well.
   */
  entries(keepOthers = false): [string, unknown][] {
    return keepOthers ? [...new Map([...this.stored, ...this.used])] : [...this.used]
  }
}

const file = (root: string) => join(root, CACHE_DIR, 'check.json')

/** When a check last wrote the check cache, or undefined when there is none. */
export const checkCacheTime = (root: string): number | undefined => statSync(file(root), { throwIfNoEntry: false })?.mtimeMs

export function loadCheckCache(root: string, version: string): CheckCache {
  try {
    const stored = JSON.parse(readFileSync(file(root), 'utf8')) as { version: string; entries: [string, unknown][] }
    return new CheckCache(new Map(stored.version === version ? stored.entries : []))
  } catch {
    return new CheckCache(new Map())
  }
}

export function saveCheckCache(root: string, version: string, cache: CheckCache, keepOthers: boolean): void {
  mkdirSync(join(root, CACHE_DIR), { recursive: true })
  writeFileSync(`${file(root)}.tmp`, JSON.stringify({ version, entries: cache.entries(keepOthers) }))
  renameSync(`${file(root)}.tmp`, file(root))
}

/** The version of the checks: clinic-build's code (the checks and the rules they share with the build) and the axe-core that judges. */
export async function checkVersion(packageDir: string): Promise<string> {
  const axe = (createRequire(join(packageDir, 'package.json'))('axe-core/package.json') as { version: string }).version
  return hashOf(axe, codeVersion(await readCode(packageDir)))
}
