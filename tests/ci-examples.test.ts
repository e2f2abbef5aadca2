// The CI set-ups in docs/ci/ that users copy: each keeps the folder the build cache really uses,
// and runs the build command the README gives.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { CACHE_DIR } from '../src/build/cache.ts'
import { projectRoot } from './support/helpers.ts'

const examples = join(projectRoot, 'docs/ci')
const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8')
/** The set-up's build command: `npm ci && <this>   # …` in the README. */
const buildCommand = /^npm ci && (npx clinic-build [^#\n]*?)\s*#/m.exec(readme)?.[1]

describe('docs/ci/', () => {
  test('the README gives the build command the examples use', () => {
    expect(buildCommand).toBe('npx clinic-build --out dist')
  })

  test('there is an example for GitHub Actions, GitLab CI, Netlify and Cloudflare Pages', () => {
    expect(readdirSync(examples).sort()).toEqual(['cloudflare-pages.yml', 'github-actions.yml', 'gitlab-ci.yml', 'netlify.toml'])
  })

  for (const name of readdirSync(examples)) {
    test(`${name} keeps ${CACHE_DIR} and runs the README's build command`, () => {
      const text = readFileSync(join(examples, name), 'utf8')
      if (name.endsWith('.yml')) expect(() => parse(text)).not.toThrow()
      const kept = name.endsWith('.toml')
        ? /^\s*paths\s*=\s*\[([^\]]*)\]/m.exec(text)?.[1]?.split(',').map((p) => p.trim().replace(/^"|"$/g, ''))
        : cachedPaths(parse(text))
      expect(kept).toContain(CACHE_DIR)
      expect(text).toContain(buildCommand!)
    })
  }
})

/** Every `path` or `paths` under a `cache` key (GitLab) or a `uses: actions/cache` step (GitHub). */
function cachedPaths(node: unknown, inCache = false): string[] {
  if (Array.isArray(node)) return node.flatMap((n) => cachedPaths(n, inCache))
  if (!node || typeof node !== 'object') return []
  const entries = Object.entries(node as Record<string, unknown>)
  const isCache = inCache || String((node as { uses?: unknown }).uses ?? '').startsWith('actions/cache')
  return entries.flatMap(([key, value]) => {
    if (isCache && (key === 'path' || key === 'paths')) return [value].flat().map(String)
    return cachedPaths(value, isCache || key === 'cache')
  })
}
