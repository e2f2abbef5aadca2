/** Turns CLI options into absolute folders, and refuses output folders that would destroy sources. */
import { existsSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { catalogue, UsageError } from '../errors.ts'
import { packageDir } from '../util/package.ts'

export interface Folders { root: string; out: string }

export function resolveFolders(options: { root?: string; out?: string }, cwd = process.cwd()): Folders {
  const root = resolve(cwd, options.root ?? '.')
  const out = resolve(cwd, options.out ?? 'dist')
  const why = unsafeOutput(root, out)
  if (why) {
    const e = catalogue.UnsafeOutDir
    throw new UsageError(`${e.message(relative(cwd, out) || '.', why)} ${e.hint}`)
  }
  return { root, out }
}

/** Why `out` must not be replaced by a build, or undefined when it is safe. */
function unsafeOutput(root: string, out: string): string | undefined {
  const inside = (dir: string, parent: string) => dir === parent || dir.startsWith(parent + sep)
  if (out === root) return 'it is the site folder itself'
  if (inside(root, out)) return 'it contains the site folder'
  if (inside(packageDir, out)) return 'it contains clinic-build itself'
  if (['content', 'locales', 'static', 'templates', 'src', 'node_modules'].some((d) => inside(out, join(root, d)))) return 'it is inside the site\'s sources'
  if (existsSync(join(out, 'content'))) return 'it holds a content/ folder'
  return undefined
}
