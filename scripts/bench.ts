/**
 * npm run bench -- [N] [--compare]
 * Builds a copy of the site with N synthetic articles (../shared/bench/gen-corpus.mjs) through
 * --root, cold and then again with nothing changed, and prints time, pages per second and peak
 * memory. --compare also times Hugo and Eleventy on the same corpus with ../shared/bench/compare.sh.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const harness = resolve(root, '../shared/bench')
const args = process.argv.slice(2)
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 4000)
const compare = args.includes('--compare')

if (!existsSync(join(harness, 'gen-corpus.mjs'))) {
  console.error(`bench: ${harness}/gen-corpus.mjs is missing; the benchmark needs ../shared/bench beside the project.`)
  process.exit(1)
}

const work = mkdtempSync(join(tmpdir(), 'clinic-bench-'))
const site = join(work, 'site')
const corpus = join(work, 'corpus')
for (const folder of ['content', 'locales', 'static']) cpSync(join(root, folder), join(site, folder), { recursive: true })
execFileSync(process.execPath, [join(harness, 'gen-corpus.mjs'), String(n), corpus], { stdio: 'ignore' })
// The corpus carries title, description, date, slug and tags; an article here also names its
// author and reviewer, so every post gets the same sample doctor.
mkdirSync(join(site, 'content/en/blog'), { recursive: true })
for (const file of readdirSync(corpus)) {
  const text = readFileSync(join(corpus, file), 'utf8')
  writeFileSync(join(site, 'content/en/blog', file), text.replace(/^tags:/m, 'author: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags:'))
}

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined
function run(label: string): { seconds: number; rssMb?: number; pages: number } {
  const out = join(work, 'out')
  const command = [process.execPath, join(root, 'bin/clinic-build.js'), '--root', site, '--out', out]
  const started = performance.now()
  const r = timeBin
    ? spawnSync(timeBin, ['-f', '%M', ...command], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const seconds = (performance.now() - started) / 1000
  if (r.status !== 0) {
    console.error(r.stderr.split('\n').slice(0, 20).join('\n'))
    throw new Error(`bench: the ${label} build failed`)
  }
  const rss = timeBin ? Number(r.stderr.trim().split('\n').at(-1)) / 1024 : undefined
  return { seconds, rssMb: rss, pages: countPages(out) }
}

function countPages(dir: string): number {
  return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.html')).length
}

function copyFloor(): number {
  const started = performance.now()
  cpSync(join(work, 'out'), join(work, 'copy'), { recursive: true })
  const seconds = (performance.now() - started) / 1000
  rmSync(join(work, 'copy'), { recursive: true, force: true })
  return seconds
}

rmSync(join(site, '.clinic'), { recursive: true, force: true })
const cold = run('cold')
const warm = run('warm')
const floor = copyFloor()
const row = (label: string, r: { seconds: number; rssMb?: number; pages: number }) =>
  `| ${label} | ${r.pages} | ${r.seconds.toFixed(2)} | ${(r.pages / r.seconds).toFixed(0)} | ${((r.seconds * 1000) / r.pages).toFixed(2)} | ${r.rssMb ? `${r.rssMb.toFixed(0)} MB` : 'n/a'} |`
console.log(`\nclinic-build, ${n} synthetic articles (${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version})\n`)
console.log('| build | pages | seconds | pages/s | ms/page | peak RSS |')
console.log('|---|---|---|---|---|---|')
console.log(row('cold', cold))
console.log(row('unchanged rebuild', warm))
console.log(`| floor: copying the output tree | ${cold.pages} | ${floor.toFixed(2)} | | | |`)

if (compare) {
  console.log('\nHugo and Eleventy on the same corpus (../shared/bench/compare.sh):')
  const r = spawnSync('bash', [join(harness, 'compare.sh'), String(n)], { stdio: 'inherit', env: { ...process.env, TOOLS: 'hugo eleventy', WORK: join(tmpdir(), 'ssg-bench') } })
  if (r.status !== 0) console.error('bench: compare.sh failed; see its output above')
}
rmSync(work, { recursive: true, force: true })
