// `npm ci` on a fresh clone: every installed package accepts every Node line the project supports,
// so npm prints no EBADENGINE on any of them, and the install scripts the project needs are declared.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { describe, expect, test } from 'vitest'
import { projectRoot } from './support/helpers.ts'

interface LockedPackage { version?: string; engines?: { node?: string }; os?: string[]; cpu?: string[]; hasInstallScript?: boolean; dev?: boolean }

const packageJson = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> }
const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> }

/** The first release of each line `engines` allows, from 20 to 30: where a dependency's range most often starts later. */
function firstReleases(range: string): string[] {
  const candidates = Array.from({ length: 11 }, (_, i) => 20 + i).flatMap((major) =>
    Array.from({ length: 40 }, (_, minor) => `${major}.${minor}.0`))
  const firsts = new Map<number, string>()
  for (const version of candidates) {
    if (semver.satisfies(version, range) && !firsts.has(semver.major(version))) firsts.set(semver.major(version), version)
  }
  return [...firsts.values()]
}

/** A platform package (sharp's prebuilt binaries, say) that npm skips on this machine is never checked by it either. */
const installsHere = (p: LockedPackage) =>
  (!p.os || p.os.includes(process.platform)) && (!p.cpu || p.cpu.includes(process.arch))

/** Packages whose engines refuse one of the project's Node lines, as `name@version needs range, not version`. */
function refusals(range: string, packages: Record<string, LockedPackage>): string[] {
  return Object.entries(packages).flatMap(([path, p]) => {
    const needs = p.engines?.node
    if (!path || !needs || !installsHere(p)) return []
    const name = path.replace(/^.*node_modules\//, '')
    return firstReleases(range).filter((v) => !semver.satisfies(v, needs)).map((v) => `${name}@${p.version} needs ${needs}, not ${v}`)
  })
}

describe('a clean install', () => {
  test('the project supports Node 20.19 and the LTS lines after it, 22 and 24', () => {
    const range = packageJson.engines.node
    for (const version of ['20.19.0', '20.20.2', '22.13.0', '22.22.0', '24.0.0', '24.11.1', '26.0.0']) expect(semver.satisfies(version, range), version).toBe(true)
    expect(semver.satisfies('20.18.0', range)).toBe(false)
  })

  test('every package installed accepts the first release of each Node line the project supports', () => {
    expect(firstReleases(packageJson.engines.node)).toContain('20.19.0')
    expect(refusals(packageJson.engines.node, lock.packages)).toEqual([])
  })

  test('a dependency that refused Node 20 would be found', () => {
    const locked = { 'node_modules/x': { version: '1.0.0', engines: { node: '>=22.12.0' } } }
    expect(refusals(packageJson.engines.node, locked)).toEqual(['x@1.0.0 needs >=22.12.0, not 20.19.0'])
  })

  test('every package with an install script that runs here is allowed by name in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.hasInstallScript && installsHere(p))
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
    expect(withScripts).toContain('esbuild')
    expect(withScripts.filter((name) => packageJson.allowScripts?.[name] !== true)).toEqual([])
  })
})
