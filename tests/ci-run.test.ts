// The project's own CI (.ci/run): the builds on the other Node lines must be the same site as
// Node 20's, and a difference must stop the script, not be printed and passed over.
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { projectRoot } from './support/helpers.ts'

const script = join(projectRoot, '.ci/run')

/** Runs bash with `set -euo pipefail` and `body`, in the project folder, as .ci/run runs. */
function bash(body: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('bash', ['-c', `set -euo pipefail\n${body}`], { cwd: projectRoot, encoding: 'utf8' }, (error, stdout, stderr) => {
      done({ status: error ? Number(error.code) : 0, stdout, stderr })
    })
  })
}

/** Two copies of a small built folder; the second changed by `change` when given. */
function twoBuilds(change?: (dir: string) => void): [string, string] {
  const base = mkdtempSync(join(tmpdir(), 'clinic-ci-'))
  const [reference, other] = [join(base, 'node20'), join(base, 'node24')]
  cpSync(join(projectRoot, 'static'), reference, { recursive: true })
  writeFileSync(join(reference, 'index.html'), '<!doctype html><title>Home</title>\n')
  cpSync(reference, other, { recursive: true })
  change?.(other)
  return [reference, other]
}

test('.ci/run compares every other Node line\'s build with .ci/same-build, as a command of its own', () => {
  const text = readFileSync(script, 'utf8')
  expect(text).toMatch(/^set -euo pipefail$/m)
  const comparisons = text.split('\n').filter((line) => /\bdiff\b|same-build/.test(line) && !line.trimStart().startsWith('#'))
  expect(comparisons).toEqual(['  .ci/same-build "$reference" "$out" "the build on Node $line"'])
})

test('the same builds pass', async () => {
  const [reference, other] = twoBuilds()
  const run = await bash(`.ci/same-build ${reference} ${other} "the build on Node 24"\necho went-on`)
  expect(run).toEqual({ status: 0, stdout: 'the build on Node 24 is byte-identical to the reference build\nwent-on\n', stderr: '' })
})

test('builds that differ by one byte, or by a file, stop the script and name the files', async () => {
  const changed = twoBuilds((dir) => writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Home</title> \n'))
  const stopped = await bash(`.ci/same-build ${changed[0]} ${changed[1]} "the build on Node 24"\necho went-on`)
  expect(stopped.status).toBe(1)
  expect(stopped.stdout).toMatch(/^Files .*node20\/index\.html and .*node24\/index\.html differ\n$/)
  expect(stopped.stderr).toBe('the build on Node 24 differs from the reference build (the files above): the supported Node lines must build the same site.\n')

  const extra = twoBuilds((dir) => writeFileSync(join(dir, 'stray.txt'), 'only on one line'))
  const alsoStopped = await bash(`.ci/same-build ${extra[0]} ${extra[1]} "the build on Node 22"\necho went-on`)
  expect(alsoStopped.status).toBe(1)
  expect(alsoStopped.stdout).toMatch(/^Only in .*node24: stray\.txt\n$/)
  expect(alsoStopped.stdout).not.toContain('went-on')
})
