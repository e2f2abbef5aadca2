/**
 * A build stopped at any moment, by SIGKILL so that no handler of its own runs: the output folder
 * is the site the last build wrote or the one the stopped build was writing, never a mix of the
 * two, and the next build writes what a build from nothing writes, leaving nothing of the stopped
 * one beside the output folder. Each case stops the same build at points spread over its whole
 * time, the write included.
 */
import { spawn, spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { BIN, addArticles, copySite, digestOf, edit, filesIn, runCli } from '../support/helpers.ts'

/** Points at which each build is stopped, spread from its start to a little past its usual end. */
const POINTS = 6
/** And ms after it starts to write a new output folder beside the old one, when it does. */
const IN_THE_WRITE = [0, 20, 100, 400, 1500]

/** Every file of an output folder by path, with a digest of its bytes; undefined when there is no folder. */
const siteIn = (dir: string) => (existsSync(dir) ? JSON.stringify([...filesIn(dir, digestOf)]) : undefined)

/**
 * Runs the CLI's build of `site` into its dist/, stopped with SIGKILL `ms` after it starts, or
 * after it starts writing the new folder (`dist.tmp-<pid>` appears), unless it ends first.
 */
function buildStoppedAfter(site: string, ms: number, from: 'start' | 'write' = 'start'): Promise<'stopped' | 'finished'> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, '--root', site, '--out', join(site, 'dist')], { stdio: 'ignore' })
    let timer: NodeJS.Timeout | undefined
    const stop = () => { timer = setTimeout(() => child.kill('SIGKILL'), ms) }
    const watch = setInterval(() => {
      if (!existsSync(join(site, `dist.tmp-${child.pid}`))) return
      clearInterval(watch)
      stop()
    }, 2)
    if (from === 'start') {
      clearInterval(watch)
      stop()
    }
    child.on('exit', (_code, signal) => {
      clearInterval(watch)
      clearTimeout(timer)
      done(signal === 'SIGKILL' ? 'stopped' : 'finished')
    })
  })
}

async function builtWhole(site: string, out = 'dist'): Promise<void> {
  const result = await runCli(['--root', site, '--out', join(site, out)])
  expect(result.status, result.stderr).toBe(0)
}

/**
 * `change` is made to a site built once (its output and cache kept); the build of the changed
 * site is then stopped at each point, each time from that same start.
 */
async function stopAtEveryPoint(change: (site: string) => void, writesAFolder: boolean): Promise<void> {
  const before = addArticles(copySite(), 120)
  await builtWhole(before)
  const last = siteIn(join(before, 'dist'))
  change(before)
  // What the changed site is, built from nothing, and how long its build takes from that start.
  const reference = mkdtempSync(join(tmpdir(), 'clinic-interrupted-'))
  cpSync(before, reference, { recursive: true })
  rmSync(join(reference, '.clinic/cache'), { recursive: true, force: true })
  await builtWhole(reference, 'fresh')
  const next = siteIn(join(reference, 'fresh'))
  const timed = mkdtempSync(join(tmpdir(), 'clinic-interrupted-'))
  cpSync(before, timed, { recursive: true })
  const started = performance.now()
  await builtWhole(timed)
  const duration = performance.now() - started
  expect(siteIn(join(timed, 'dist'))).toBe(next)

  const seen: string[] = []
  const points = [
    ...Array.from({ length: POINTS }, (_, point) => ({ ms: Math.round((duration * 1.2 * (point + 0.5)) / POINTS), from: 'start' as const })),
    ...(writesAFolder ? IN_THE_WRITE.map((ms) => ({ ms, from: 'write' as const })) : []),
  ]
  for (const { ms, from } of points) {
    const site = mkdtempSync(join(tmpdir(), 'clinic-interrupted-'))
    cpSync(before, site, { recursive: true })
    const ended = await buildStoppedAfter(site, ms, from)
    const left = siteIn(join(site, 'dist'))
    seen.push(`${ended} ${ms} ms after its ${from}: ${left === last ? 'last' : left === next ? 'next' : left === undefined ? 'no folder' : 'a mix'}`)
    expect(seen.at(-1), seen.join('; ')).toMatch(/: (last|next)$/)
    await builtWhole(site)
    expect(siteIn(join(site, 'dist')), `the build after one ${seen.at(-1)}`).toBe(next)
    expect(readdirSync(site).filter((name) => name.startsWith('dist')), 'beside the output folder').toEqual(['dist'])
    rmSync(site, { recursive: true, force: true })
  }
  // Some points came before the build ended; when it writes a new folder, some while it did.
  expect(seen.some((s) => s.startsWith('stopped')), seen.join('; ')).toBe(true)
  if (writesAFolder) expect(seen.some((s) => /^stopped .* after its write/.test(s)), seen.join('; ')).toBe(true)
}

test('bodies edited: a build stopped anywhere in its patch leaves the last site or the next', async () => {
  await stopAtEveryPoint((site) => {
    for (const i of [1, 30, 60, 90, 120]) appendFileSync(join(site, `content/en/blog/note-${i}.md`), `\nA line more for note ${i}.\n`)
  }, false)
}, 600_000)

test('titles, a new article and a removed one: a build stopped anywhere leaves the last site or the next', async () => {
  await stopAtEveryPoint((site) => {
    edit(site, 'content/en/blog/note-2.md', (text) => text.replace('title: Clinic note 2', 'title: Clinic note two'))
    rmSync(join(site, 'content/en/blog/note-3.md'))
    cpSync(join(site, 'content/en/blog/note-4.md'), join(site, 'content/en/blog/note-extra.md'))
    edit(site, 'content/en/blog/note-extra.md', (text) => text.replace('title: Clinic note 4', 'title: An extra clinic note'))
  }, true)
}, 600_000)

test('a build stopped between the two renames of its swap: the next build, even one that fails, puts the last site back', async () => {
  const site = addArticles(copySite(), 5)
  await builtWhole(site)
  const last = siteIn(join(site, 'dist'))
  // What that moment leaves: the last site moved aside, the next one whole beside it, and the process gone.
  const ended = spawnSync(process.execPath, ['-e', '']).pid
  renameSync(join(site, 'dist'), join(site, `dist.old-${ended}`))
  cpSync(join(site, `dist.old-${ended}`), join(site, `dist.tmp-${ended}`), { recursive: true })
  appendFileSync(join(site, 'content/en/blog/note-2.md'), '\nA line more for note 2.\n')
  edit(site, 'content/en/blog/note-3.md', (text) => text.replace('title: Clinic note 3', 'title: 3'))

  const refused = await runCli(['--root', site, '--out', join(site, 'dist')])
  expect(refused.status, refused.stderr).toBe(1)
  expect(refused.stderr).toContain('content/en/blog/note-3.md')
  expect(siteIn(join(site, 'dist'))).toBe(last)
  expect(readdirSync(site).filter((name) => name.startsWith('dist')), 'beside the output folder').toEqual(['dist'])

  edit(site, 'content/en/blog/note-3.md', (text) => text.replace('title: 3', 'title: Clinic note 3'))
  await builtWhole(site)
  expect(readFileSync(join(site, 'dist/blog/note-2/index.html'), 'utf8')).toContain('A line more for note 2.')
  expect(readdirSync(site).filter((name) => name.startsWith('dist'))).toEqual(['dist'])
  rmSync(site, { recursive: true, force: true })
}, 120_000)
