/**
 * npm run bench -- [N ...] [--compare] [--runs R] [--node PATH ...]
 * For each N (default 4000): a copy of the site with N synthetic articles from
 * ../shared/bench/gen-corpus.mjs, built through --root cold (no cache), again with nothing
 * changed (warm: stopped by the last build's record, and with every stage run), again after one
 * article's body changed, and with nothing changed into a folder
 * that is not there (as CI builds with a kept cache); peak memory of each; and two
 * floors, timed right after the cold build on the same Node: the time to copy the same output
 * tree, and the time the libraries a build must use take on the articles alone
 * (scripts/library-floor.ts), spread perfectly over the cores and as they run on every core at
 * once. Then `clinic-build check` of the output:
 * with no check cache, after one article's body changed, and (up to 1,000 articles) with --all,
 * beside its floor: Chromium and axe-core alone on a sample of the pages (scripts/browser-floor.ts).
 * --compare also times Hugo and Eleventy
 * on the same corpus with ../shared/bench/compare.sh, clinic-build's cold build among them, in
 * the same run. Each --node also times the cold build, its floors and the two warm builds (nothing
 * changed, one article edited) with that Node binary (another LTS line, say), after the rest. Also the shipped
 * site's own cold build, so that the cost of each article beyond it shows, and the link check on
 * its own (pages a second). Last, the ratios the targets are stated in.
 * First, once per run, the shipped site's own figures: its start-up (built with its encoded images
 * kept and the rest of its cache removed, as after an upgrade of clinic-build), `--version` beside
 * Node's own start, on every Node given, its check with no check cache, and its cold build with
 * the content editor's bundle to make and kept.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { librariesTogether, libraryFloor, type LibraryFloor } from './library-floor.ts'
import { browserFloor } from './browser-floor.ts'

const root = resolve(import.meta.dirname, '..')
const bin = join(root, 'bin/clinic-build.js')
const harness = resolve(root, '../shared/bench')
const args = process.argv.slice(2)
const sizes = args.filter((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--runs').map(Number)
const otherNodes = args.filter((_, i) => args[i - 1] === '--node')
const compare = args.includes('--compare')
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) || 3 : 3
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

if (!existsSync(join(harness, 'gen-corpus.mjs'))) {
  console.error(`bench: ${harness}/gen-corpus.mjs is missing; the benchmark needs ../shared/bench beside the project.`)
  process.exit(1)
}

interface Run { seconds: number; rssMb?: number; stdout?: string }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** A copy of the shipped site in `work`. */
function copySite(work: string, name = 'site'): string {
  const site = join(work, name)
  for (const folder of ['content', 'locales', 'static']) cpSync(join(root, folder), join(site, folder), { recursive: true })
  return site
}

/** The site with N synthetic articles; each names the sample doctor as author and reviewer. */
function prepareSite(n: number, work: string): string {
  const site = copySite(work)
  const corpus = join(work, 'corpus')
  execFileSync(process.execPath, [join(harness, 'gen-corpus.mjs'), String(n), corpus], { stdio: 'ignore' })
  mkdirSync(join(site, 'content/en/blog'), { recursive: true })
  for (const file of readdirSync(corpus)) {
    const text = readFileSync(join(corpus, file), 'utf8')
    writeFileSync(join(site, 'content/en/blog', file), text.replace(/^tags:/m, 'author: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags:'))
  }
  return site
}

function build(site: string, out: string, node = process.execPath): Run {
  const command = [node, bin, '--root', site, '--out', out]
  const started = performance.now()
  const r = timeBin
    ? spawnSync(timeBin, ['-f', '%M', ...command], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const seconds = (performance.now() - started) / 1000
  if (r.status !== 0) throw new Error(`bench: a build failed:\n${r.stderr.split('\n').slice(0, 20).join('\n')}`)
  return { seconds, rssMb: timeBin ? Number(r.stderr.trim().split('\n').at(-1)) / 1024 : undefined, stdout: r.stdout }
}

/** One `clinic-build check` of the output; exit 1 (findings: the synthetic articles break advertising rules) counts as a run. */
function check(site: string, out: string, ...args: string[]): Run {
  const started = performance.now()
  const r = spawnSync(process.execPath, [bin, 'check', '--root', site, '--out', out, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  const seconds = (performance.now() - started) / 1000
  if (r.status !== 0 && r.status !== 1) throw new Error(`bench: check failed:\n${r.stderr.split('\n').slice(0, 20).join('\n')}`)
  return { seconds, stdout: r.stdout }
}
const withoutCheckCache = (site: string) => rmSync(join(site, '.clinic/cache/check.json'), { force: true })

/** Pages and seconds of one check in a check's report. Example: 'links   1100 judged from the files   3.2 s' */
function checkLine(stdout: string | undefined, name: string): { pages: number; seconds: number } | undefined {
  const m = new RegExp(`^${name} +(\\d+) judged.* ([\\d.]+) s$`, 'm').exec(stdout ?? '')
  return m ? { pages: Number(m[1]), seconds: Number(m[2]) } : undefined
}
const perSecond = (line: { pages: number; seconds: number } | undefined) => (line ? `${line.pages} pages in ${line.seconds.toFixed(1)} s, ${(line.pages / line.seconds).toFixed(0)} a second` : 'not in the report')

/** The median of `times` runs (by time; `runs` unless said), with the largest peak memory among them. */
function measure(runOnce: () => Run, times = runs): Run {
  const all = Array.from({ length: times }, runOnce)
  const rss = all.map((r) => r.rssMb ?? 0)
  const middle = all.find((r) => r.seconds === median(all.map((x) => x.seconds)))!
  return { seconds: middle.seconds, stdout: middle.stdout, rssMb: Math.max(...rss) || undefined }
}

const pagesIn = (dir: string) => readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.html')).length

/**
 * The floors a cold build on `node` is held to, timed right after it (this machine's speed moves
 * within a run): copying the output tree `out`, and the libraries alone on `node`, perfectly
 * spread over the cores and as they run on every core at once (scripts/library-floor.ts).
 */
async function floorsOn(node: string, out: string, work: string, n: number) {
  const corpus = join(work, 'corpus')
  return { copy: copyFloor(out, work), libraries: await libraryFloor(corpus, n, 400, node), together: await librariesTogether(corpus, n, 400, node) }
}
type Floors = Awaited<ReturnType<typeof floorsOn>>

function copyFloor(out: string, work: string): number {
  const started = performance.now()
  cpSync(out, join(work, 'copy'), { recursive: true })
  const seconds = (performance.now() - started) / 1000
  rmSync(join(work, 'copy'), { recursive: true, force: true })
  return seconds
}

/** Hugo's and Eleventy's medians (and clinic-build's, timed the same way) from compare.sh. */
function compareRun(n: number, site: string): Record<string, { seconds: number; rssMb: number }> {
  const bench = join(tmpdir(), 'ssg-bench')
  const candidate = `rm -rf ${site}/.clinic && ${process.execPath} ${bin} --root ${site} --out {out}`
  const r = spawnSync('bash', [join(harness, 'compare.sh'), String(n)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, TOOLS: 'hugo eleventy', WORK: bench, RUNS: String(runs), CANDIDATE_NAME: 'clinic-build', CANDIDATE_CMD: candidate },
  })
  if (r.status !== 0) throw new Error('bench: compare.sh failed; see its output above')
  const { results } = JSON.parse(readFileSync(join(bench, `n${n}`, 'hyperfine.json'), 'utf8')) as { results: { command: string; median: number }[] }
  const rss = Object.fromEntries(readFileSync(join(bench, `n${n}`, 'meta.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t')).map((c) => [c[0], Number(c[5]) / 1024]))
  return Object.fromEntries(results.map((x) => [x.command, { seconds: x.median, rssMb: rss[x.command] ?? 0 }]))
}

/** The build summary's verdict on the byte budgets, with the heaviest page type's HTML. */
function budgetVerdict(stdout: string): string {
  const verdict = /^(every page fits its budgets|over budget:[\s\S]*?)$/m.exec(stdout)?.[1] ?? 'no budget line in the summary'
  const html = [...stdout.matchAll(/^ {2}([a-z-]+) +([\d.]+ KB) \/ ([\d.]+ KB)/gm)].map((m) => ({ type: m[1]!, raw: m[2]!, gzip: m[3]! }))
  const heaviest = html.sort((a, b) => parseFloat(b.gzip) - parseFloat(a.gzip))[0]
  return heaviest ? `${verdict}; heaviest HTML: ${heaviest.type}, ${heaviest.raw} (${heaviest.gzip} gzip)` : verdict
}
const budgetLines: string[] = []
const ratios: string[] = []
/** Peak memory of each size's cold build, for the memory targets: 1 GB at 10,000 articles, and 1.5 times the peak at 1,000. */
const coldPeaks = new Map<number, number>()

/** Seconds of one run of `node args`, which must succeed. */
function timed(node: string, args: string[]): Run {
  const started = performance.now()
  execFileSync(node, args, { stdio: 'ignore' })
  return { seconds: (performance.now() - started) / 1000 }
}

/**
 * The shipped site's start-up on `node`: built with its encoded images kept (.clinic/cache/files)
 * and the rest of its cache removed, the output folder present; then `--version`, and Node's own
 * start beside it.
 */
function startUp(work: string, node: string): { version: string; build: number; cli: number; node: number } {
  const site = copySite(work, 'start-up')
  const out = join(work, 'start-up-out')
  build(site, out, node) // encodes the images the measured builds keep
  const cache = join(site, '.clinic/cache')
  const withoutPageCache = () => { for (const name of readdirSync(cache)) if (name !== 'files') rmSync(join(cache, name), { recursive: true, force: true }) }
  const result = {
    version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
    build: measure(() => { withoutPageCache(); return build(site, out, node) }).seconds,
    // Ten runs each: the shortest figures vary most.
    cli: measure(() => timed(node, [bin, '--version']), 10).seconds,
    node: measure(() => timed(node, ['-e', '0']), 10).seconds,
  }
  rmSync(site, { recursive: true, force: true })
  return result
}

/**
 * What the content editor costs a cold build of the shipped site: built with its page cache
 * removed, once with the editor's bundle to make (.bundle/admin removed, as after an upgrade of
 * clinic-build) and once with it kept, turn about.
 */
function editorCost(work: string): { toMake: number; kept: number } {
  const site = copySite(work, 'editor')
  const out = join(work, 'editor-out')
  build(site, out)
  const cache = join(site, '.clinic/cache')
  const cold = (bundle: 'made' | 'kept') => {
    rmSync(cache, { recursive: true, force: true })
    if (bundle === 'made') rmSync(join(root, '.bundle/admin'), { recursive: true, force: true })
    return build(site, out).seconds
  }
  const toMake: number[] = []
  const kept: number[] = []
  for (let i = 0; i < runs; i++) { toMake.push(cold('made')); kept.push(cold('kept')) }
  rmSync(site, { recursive: true, force: true })
  return { toMake: median(toMake), kept: median(kept) }
}

/** The shipped site's check with no check cache, the output folder built. */
function shippedCheck(work: string): Run {
  const site = copySite(work, 'check')
  const out = join(work, 'check-out')
  build(site, out)
  const run = measure(() => { withoutCheckCache(site); return check(site, out) })
  rmSync(site, { recursive: true, force: true })
  return run
}

const machine = `${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
const report: string[] = [`clinic-build benchmark, ${new Date().toISOString().slice(0, 10)} (${machine}), median of ${runs} runs\n`]
report.push('| articles | pages | build | seconds | ms/page | peak RSS MB |', '|---|---|---|---|---|---|')
const row = (n: number, pages: number, label: string, r: Run) =>
  report.push(`| ${n} | ${pages} | ${label} | ${r.seconds.toFixed(2)} | ${((r.seconds * 1000) / pages).toFixed(2)} | ${r.rssMb ? r.rssMb.toFixed(0) : ''} |`)

{
  const work = mkdtempSync(join(tmpdir(), 'clinic-bench-'))
  const starts = [process.execPath, ...otherNodes].map((node) => startUp(work, node))
  const checked = shippedCheck(work)
  const editor = editorCost(work)
  const pages = pagesIn(join(work, 'check-out'))
  rmSync(work, { recursive: true, force: true })
  for (const s of starts) {
    row(0, pages, `the shipped site, images kept, the rest of its cache removed (Node ${s.version})`, { seconds: s.build })
    report.push(`| 0 | | clinic-build --version (Node ${s.version}) | ${s.cli.toFixed(3)} | | |`, `| 0 | | node -e 0 (Node ${s.version}) | ${s.node.toFixed(3)} | | |`)
  }
  row(0, pages, 'the shipped site: check, no check cache', checked)
  row(0, pages, 'the shipped site, cold, the content editor\'s bundle to make', { seconds: editor.toMake })
  row(0, pages, 'the shipped site, cold, the content editor\'s bundle kept', { seconds: editor.kept })
  ratios.push(`the shipped site: start-up ${starts.map((s) => `${s.build.toFixed(2)} s on Node ${s.version}`).join(', ')} (target 1 s); `
    + `--version ${starts.map((s) => `${s.cli.toFixed(3)} s (Node's own start ${s.node.toFixed(3)} s) on Node ${s.version}`).join(', ')} (target 0.1 s); `
    + `check with no check cache ${checked.seconds.toFixed(2)} s (target 10 s)`)
}

for (const n of sizes.length ? sizes : [4000]) {
  const work = mkdtempSync(join(tmpdir(), 'clinic-bench-'))
  const site = prepareSite(n, work)
  const out = join(work, 'out')
  // With --compare, clinic-build's cold build is timed by compare.sh beside the others, the same way.
  const compared = compare ? compareRun(n, site) : {}
  const cold = compared['clinic-build'] ?? measure(() => { rmSync(join(site, '.clinic'), { recursive: true, force: true }); return build(site, out) })
  // The shipped site alone, cold, right after: what each article adds to a build beyond it.
  const shipped = copySite(work, 'shipped')
  const shippedCold = measure(() => { rmSync(join(shipped, '.clinic'), { recursive: true, force: true }); return build(shipped, join(work, 'shipped-out')) })
  // Writes this run's output folder (from the cache the last cold build left) and prints the summary.
  const first = build(site, out)
  const pages = pagesIn(out)
  const floors = await floorsOn(process.execPath, out, work, n)
  budgetLines.push(`${n} articles: ${budgetVerdict(first.stdout ?? '')}`)
  const warm = measure(() => build(site, out))
  // The same without the last build's record: every stage runs, each finding its work in the cache.
  const fullPass = measure(() => { rmSync(join(site, '.clinic/cache/last-build.bin'), { force: true }); return build(site, out) })
  const article = join(site, 'content/en/blog', readdirSync(join(site, 'content/en/blog')).find((f) => f !== 'index.md')!)
  const editOnce = () => { appendFileSync(article, '\nOne more sentence for the benchmark.\n'); return build(site, out) }
  // The first write into this folder since one from nothing has no spare folder to start from
  // (src/build/write.ts), and writes every file: once per output folder, so kept out of the figure.
  editOnce()
  const edited = measure(editOnce)
  // As in CI: the cache kept, no output folder. (With the folder as the last build left it, the
  // unchanged build above only compares the inputs' fingerprint; src/build/last-build.ts.)
  const noFolder = join(work, 'fresh-out')
  const inCi = measure(() => { rmSync(noFolder, { recursive: true, force: true }); return build(site, noFolder) })
  // check: with no check cache (as a first CI run), then after one article's body changed and the
  // site was built again (the cache holds the run before); --all opens every page, so only up to 1,000.
  build(site, out)
  const checkCold = measure(() => { withoutCheckCache(site); return check(site, out) })
  const checkEdited = measure(() => { check(site, out); appendFileSync(article, '\nOne more sentence for the check.\n'); build(site, out); return check(site, out) })
  const checkAll = n <= 1000 ? check(site, out, '--all') : undefined
  // What Chromium and axe-core alone take per page: the floor of --all (scripts/browser-floor.ts).
  const allFloor = checkAll ? await browserFloor(out) : undefined
  // The link check on its own, with no check cache: its pages a second with the cores to itself.
  withoutCheckCache(site)
  const linksAlone = checkLine(check(site, out, '--only', 'links').stdout, 'links')
  // Each other Node line: its cold build, then its warm builds as above (the edit's ratio is the
  // one most affected by a line's compile cache, which Node 20 lacks).
  const coldOn: { version: string; run: Run; floors: Floors; warm: Run; edited: Run }[] = []
  for (const node of otherNodes) {
    const run = measure(() => { rmSync(join(site, '.clinic'), { recursive: true, force: true }); return build(site, out, node) })
    build(site, out, node)
    const floorsThere = await floorsOn(node, out, work, n)
    const editOn = () => { appendFileSync(article, '\nOne more sentence for the benchmark.\n'); return build(site, out, node) }
    editOn()
    coldOn.push({ version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(), run, floors: floorsThere, warm: measure(() => build(site, out, node)), edited: measure(editOn) })
  }
  row(n, pages, `clinic-build cold (Node ${process.version})`, cold)
  for (const { version, run } of coldOn) row(n, pages, `clinic-build cold (Node ${version})`, run)
  row(n, pagesIn(join(work, 'shipped-out')), 'clinic-build cold, the shipped site alone', shippedCold)
  row(n, pages, 'clinic-build warm (nothing changed)', warm)
  row(n, pages, 'clinic-build warm (nothing changed, every stage run: no record of the last build)', fullPass)
  row(n, pages, 'clinic-build warm (one article edited)', edited)
  for (const { version, warm, edited } of coldOn) {
    row(n, pages, `clinic-build warm (nothing changed, Node ${version})`, warm)
    row(n, pages, `clinic-build warm (one article edited, Node ${version})`, edited)
  }
  row(n, pages, 'clinic-build warm (nothing changed, no output folder, as in CI)', inCi)
  row(n, pages, 'check, no check cache', checkCold)
  row(n, pages, 'check, one article edited', checkEdited)
  if (checkAll) row(n, pages, 'check --all (every page in the browser)', checkAll)
  if (allFloor) row(n, pages, `floor of --all: Chromium and axe-core alone (${allFloor.pages} of the pages, scaled to all)`, { seconds: allFloor.secondsPerPage * pages })
  const floorRows = (version: string, { copy, libraries, together }: Floors) => {
    report.push(`| ${n} | ${pages} | floor: copying the output tree (after the cold build on Node ${version}) | ${copy.toFixed(2)} | ${((copy * 1000) / pages).toFixed(2)} | |`)
    const { parse, render, minify } = libraries.perArticle
    report.push(`| ${n} | ${n} | floor on Node ${version}: remark-parse ${parse.toFixed(2)} + React ${render.toFixed(2)} + html-minifier-terser ${minify.toFixed(2)} ms per article body, over ${cpus().length} cores | ${libraries.seconds.toFixed(2)} | ${((libraries.seconds * 1000) / n).toFixed(2)} | |`)
    const each = together.perArticle
    report.push(`| ${n} | ${n} | the same libraries on ${cpus().length} cores at once, Node ${version}: ${each.parse.toFixed(2)} + ${each.render.toFixed(2)} + ${each.minify.toFixed(2)} ms per article on each | ${together.seconds.toFixed(2)} | ${((together.seconds * 1000) / n).toFixed(2)} | |`)
  }
  floorRows(process.version, floors)
  for (const { version, floors: there } of coldOn) floorRows(version, there)
  for (const [tool, r] of Object.entries(compared)) if (tool !== 'clinic-build') row(n, n + 1, `${tool} cold`, r)
  // Each Node's cold build against the floors timed beside it, on the same Node.
  const builds = [{ version: process.version, run: cold, floors }, ...coldOn]
  const onEveryNode = (libraries: (f: Floors) => LibraryFloor) =>
    builds.map(({ version, run, floors: f }) => `${(run.seconds / (libraries(f).seconds + f.copy)).toFixed(2)} on Node ${version}`).join(', ')
  ratios.push(`${n} articles: cold / floor (libraries + copy) ${onEveryNode((f) => f.libraries)}; `
    + `cold / (libraries on every core at once + copy) ${onEveryNode((f) => f.together)}; `
    + `each article beyond the shipped site's own cold build ${(((cold.seconds - shippedCold.seconds) * 1000) / n).toFixed(2)} ms; `
    + `one article edited / nothing changed ${(edited.seconds / warm.seconds).toFixed(2)} on Node ${process.version}${coldOn.map((on) => `, ${(on.edited.seconds / on.warm.seconds).toFixed(2)} on Node ${on.version}`).join('')} (/ every stage run ${(edited.seconds / fullPass.seconds).toFixed(2)}); check with no check cache / cold build ${(checkCold.seconds / cold.seconds).toFixed(2)}; `
    + `links with no check cache: on their own ${perSecond(linksAlone)}, within the whole check ${perSecond(checkLine(checkCold.stdout, 'links'))}`
    + (checkAll && allFloor ? `; check --all ${(checkAll.seconds / pages).toFixed(3)} s a page (${(0.93 / (checkAll.seconds / pages)).toFixed(2)}x faster than 0.93 s; target 3x), Chromium and axe-core alone ${allFloor.secondsPerPage.toFixed(3)} s a page (--all / that ${(checkAll.seconds / pages / allFloor.secondsPerPage).toFixed(2)})` : '')
    + (compared.hugo ? `; nothing changed / Hugo cold ${(warm.seconds / compared.hugo.seconds).toFixed(2)}, with no output folder ${(inCi.seconds / compared.hugo.seconds).toFixed(2)}` : ''))
  if (cold.rssMb) coldPeaks.set(n, cold.rssMb)
  const peaks = [...coldPeaks].map(([size, mb]) => `${mb.toFixed(0)} MB at ${size}`).join(', ')
  const growth = coldPeaks.has(1000) && n > 1000 && cold.rssMb ? `; ${n} / 1,000 articles ${(cold.rssMb / coldPeaks.get(1000)!).toFixed(2)} (target 1.5)` : ''
  if (peaks) ratios.push(`peak memory of a cold build: ${peaks} (target 1,024 MB at 10,000)${growth}`)
  rmSync(work, { recursive: true, force: true })
  console.log(report.join('\n'))
  console.log(`\nratios:\n${ratios.map((l) => `  ${l}`).join('\n')}`)
  console.log(`\nbyte budgets (build summary):\n${budgetLines.map((l) => `  ${l}`).join('\n')}`)
}
