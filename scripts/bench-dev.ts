/**
 * npm run bench:dev -- [N] [EDITS]
 * `clinic-build dev` on a copy of the site with N synthetic articles (default 4000): the time from
 * saving one article to its rebuilt page being served, and to the reload event reaching a
 * connected event-stream client, over 2 × EDITS edits (default 20): medians of the first EDITS,
 * from the server's start, and of the next EDITS, once the rebuild's code is warm. Then
 * `hugo server` on the same corpus (../shared/bench/sites/hugo): save to rebuilt page served,
 * and Hugo's own rebuild time.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const harness = resolve(root, '../shared/bench')
const [n = 4000, edits = 20] = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number)
/** Each server is timed over twice as many saves: the first `edits` from its start, then as many once it is warm. */
const saves = 2 * edits
if (!existsSync(join(harness, 'gen-corpus.mjs'))) {
  console.error(`bench:dev: ${harness}/gen-corpus.mjs is missing; the benchmark needs ../shared/bench beside the project.`)
  process.exit(1)
}

const work = mkdtempSync(join(tmpdir(), 'clinic-bench-dev-'))
const corpus = join(work, 'corpus')
execFileSync(process.execPath, [join(harness, 'gen-corpus.mjs'), String(n), corpus], { stdio: 'ignore' })
const posts = readdirSync(corpus).filter((f) => f.endsWith('.md')).sort()

/** Polls `url` until its body contains `text`; resolves with the time it did. */
async function servedAt(url: string, text: string, deadline = 600_000): Promise<number> {
  const until = performance.now() + deadline
  while (performance.now() < until) {
    const body = await fetch(url).then((r) => r.text(), () => '')
    if (body.includes(text)) return performance.now()
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`bench:dev: ${url} never showed "${text}"`)
}

function start(command: string, args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((done, fail) => {
    const check = (chunk: Buffer) => {
      output += chunk
      const match = ready.exec(output)
      if (match) done({ child, match, output: () => output })
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    child.once('exit', (code) => fail(new Error(`${command} exited ${code}:\n${output.slice(-2000)}`)))
    // A server that never says it is ready is a failure to report, not a benchmark that hangs.
    setTimeout(() => { child.kill('SIGINT'); fail(new Error(`${command} did not say it was ready within 5 minutes:\n${output.slice(-2000)}`)) }, 300_000).unref()
  })
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2 }
const row = (label: string, xs: number[]) => `| ${label} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`
/** An edit of the article's body, the everyday case (a title edit also re-renders the listings that show it). */
const addSentence = (text: string, marker: string) => `${text.trimEnd()}\n\n${marker} was added in the benchmark.\n`

async function benchClinic(): Promise<{ served: number[]; event: number[]; initial: number }> {
  const site = join(work, 'clinic')
  for (const folder of ['content', 'locales', 'static']) cpSync(join(root, folder), join(site, folder), { recursive: true })
  mkdirSync(join(site, 'content/en/blog'), { recursive: true })
  for (const file of posts) {
    const text = readFileSync(join(corpus, file), 'utf8')
    writeFileSync(join(site, 'content/en/blog', file), text.replace(/^tags:/m, 'author: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags:'))
  }
  const t0 = performance.now()
  const dev = await start(process.execPath, [join(root, 'bin/clinic-build.js'), 'dev', '--root', site, '--port', '0'], /Dev server at (http:\/\/\S+)\//)
  const initial = performance.now() - t0
  const url = dev.match[1]!
  const reloads: number[] = []
  const stream = await fetch(`${url}/__clinic/events`)
  void (async () => {
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) if (r.value.includes('event: reload')) reloads.push(performance.now())
  })().catch(() => {})
  const served: number[] = []
  const event: number[] = []
  try {
    for (let i = 0; i < saves; i++) {
      const file = join(site, 'content/en/blog', posts[(i * 97) % posts.length]!)
      const slug = /^slug: (.*)$/m.exec(readFileSync(file, 'utf8'))![1]!.trim()
      const marker = `Sentence${i}x${Date.now()}`
      const seen = reloads.length
      const saved = performance.now()
      writeFileSync(file, addSentence(readFileSync(file, 'utf8'), marker))
      served.push((await servedAt(`${url}/blog/${slug}/`, marker, 30_000)) - saved)
      while (reloads.length === seen) await new Promise((r) => setTimeout(r, 2))
      event.push(reloads[seen]! - saved)
      while ((await fetch(`${url}/__clinic/status`).then((r) => r.json()) as { building: boolean }).building) await new Promise((r) => setTimeout(r, 20))
    }
  } finally {
    dev.child.kill('SIGINT')
  }
  return { served, event, initial }
}

async function benchHugo(): Promise<{ served: number[]; rebuild: number[] } | undefined> {
  try { execFileSync('hugo', ['version'], { stdio: 'ignore' }) } catch { console.error('bench:dev: hugo is not installed; skipping it (apt-get install hugo)'); return undefined }
  const site = join(work, 'hugo')
  cpSync(join(harness, 'sites/hugo'), site, { recursive: true })
  cpSync(corpus, join(site, 'content/blog'), { recursive: true })
  // Hugo 0.111 prints "//localhost:1313/", without the scheme.
  const hugo = await start('hugo', ['server', '--source', site, '--bind', '127.0.0.1', '--port', '1313', '--disableLiveReload'], /Web Server is available at (?:http:)?\/\/(\S+?)\/? /)
  const url = `http://${hugo.match[1]!.replace('localhost', '127.0.0.1')}`
  const served: number[] = []
  try {
    for (let i = 0; i < saves; i++) {
      const file = join(site, 'content/blog', posts[(i * 97) % posts.length]!)
      const slug = /^slug: (.*)$/m.exec(readFileSync(file, 'utf8'))![1]!.trim()
      const marker = `Sentence${i}x${Date.now()}`
      const saved = performance.now()
      writeFileSync(file, addSentence(readFileSync(file, 'utf8'), marker))
      served.push((await servedAt(`${url}/blog/${slug}/`, marker, 30_000)) - saved)
      await new Promise((r) => setTimeout(r, 300)) // let Hugo finish logging this rebuild
    }
  } finally {
    hugo.child.kill('SIGINT')
  }
  const rebuild = [...hugo.output().matchAll(/Total in (\d+) ms/g)].map((m) => Number(m[1]))
  return { served, rebuild }
}

try {
  const clinic = await benchClinic()
  // clinic-build's figures first: a Hugo that never serves an edit must not lose them.
  console.log(`\nDev-server rebuilds, ${n} synthetic articles, ${saves} article edits (${cpus().length} cores, Node ${process.version})\n`)
  console.log(`clinic-build dev: first build and start ${(clinic.initial / 1000).toFixed(1)} s\n`)
  console.log('| ms from saving an article | median | min | max |')
  console.log('|---|---|---|---|')
  /** The first `edits` saves, from the server's start, and the next, once it is warm. */
  const halves = (label: string, xs: number[]) => [
    row(`${label}, saves 1–${edits} from the start`, xs.slice(0, edits)),
    row(`${label}, saves ${edits + 1}–${saves}`, xs.slice(edits)),
  ].join('\n')
  console.log(halves('clinic-build dev: rebuilt page served', clinic.served))
  console.log(halves('clinic-build dev: reload event received', clinic.event))
  const hugo = await benchHugo().catch((error: Error) => { console.log(`| hugo server: ${error.message} | | | |`); return undefined })
  if (hugo) {
    console.log(halves('hugo server: rebuilt page served', hugo.served))
    if (hugo.rebuild.length) console.log(row('hugo server: its own "Total in" rebuild time', hugo.rebuild))
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
