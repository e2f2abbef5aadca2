/**
 * The version of each page template: a hash of the template registry, the template's own file
 * and every file under templates/ it imports, directly or not. A page's cache key carries its
 * template's version, so editing a part re-renders the pages whose templates use it and leaves
 * the others cached. Pure.
 */
import { posix } from 'node:path'
import { hashOf } from '../util/memo.ts'
import type { SourceFile } from '../types.ts'

/** The registry naming the component of each template (templates/index.ts). */
const REGISTRY = 'templates/index.ts'
/** Relative module names in import and export statements (`… from '../x'`, `import '../x'`), multi-line ones included. */
const IMPORTS = /^(?:(?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm

/** `files`: the sources under templates/ (Project.templateFiles). Returns the version of a template by name. */
export function templateVersions(files: SourceFile[]): (template: string) => string {
  const byPath = new Map(files.map((f) => [f.path, f]))
  const importsOf = (file: SourceFile) => [...file.text.matchAll(IMPORTS)]
    .map((m) => posix.join(posix.dirname(file.path), m[1]!))
    .filter((path) => byPath.has(path))
  const registry = byPath.get(REGISTRY)
  const componentFile = new Map([...registry?.text.matchAll(/^import \{ (\w+) \} from '(\.\/[^']+)'/gm) ?? []].map((m) => [m[1]!, posix.join('templates', m[2]!)]))
  const templateFile = new Map([...registry?.text.matchAll(/^\s+'?([\w-]+)'?: (\w+),?$/gm) ?? []].map((m) => [m[1]!, componentFile.get(m[2]!)]))
  // A template the registry does not show plainly depends, as far as this can tell, on everything.
  const everything = hashOf(...files.flatMap((f) => [f.path, f.text]))
  const versions = new Map<string, string>()
  return (template) => {
    const known = versions.get(template)
    if (known) return known
    const start = templateFile.get(template)
    let version = everything
    if (registry && start && byPath.has(start)) {
      const closure = new Set([start])
      for (const path of closure) for (const imported of importsOf(byPath.get(path)!)) closure.add(imported)
      version = hashOf(registry.text, ...[...closure].sort().flatMap((path) => [path, byPath.get(path)!.text]))
    }
    versions.set(template, version)
    return version
  }
}
