/**
 * npm run audit [-- --desktop|--mobile] [--third-parties] [--json file]
 * Builds the site, serves it with `clinic-build serve` on 127.0.0.1, and runs Lighthouse on every
 * page type in every language with the mobile and the desktop settings; prints the four category
 * scores and LCP, CLS, TBT and transfer size per page, and which audits fell short. Requests to
 * other origins (the font service) are blocked unless `--third-parties` is given, for machines
 * that cannot reach them.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { audit, openChromium, PAGE_TYPES, startServe, type AuditResult, type Mode } from './lighthouse.ts'

const root = resolve(import.meta.dirname, '..')
const bin = join(root, 'bin/clinic-build.js')
const args = process.argv.slice(2)
const modes: Mode[] = args.includes('--desktop') ? ['desktop'] : args.includes('--mobile') ? ['mobile'] : ['mobile', 'desktop']
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined
const blockOtherOrigins = !args.includes('--third-parties')

const out = join(mkdtempSync(join(tmpdir(), 'clinic-audit-')), 'dist')
execFileSync(process.execPath, [bin, '--out', out, '--root', root], { stdio: 'ignore' })
const server = await startServe(out, root)

const chrome = await openChromium()
const results: (AuditResult & { type: string })[] = []
try {
  for (const mode of modes) {
    for (const [type, { path, prefixes }] of Object.entries(PAGE_TYPES)) {
      for (const prefix of prefixes) {
        results.push({ type, ...await audit(chrome, `${server.url}${prefix}${path}`, mode, { blockOtherOrigins }) })
        process.stderr.write('.')
      }
    }
  }
} finally {
  await chrome.kill()
  server.stop()
}

const cell = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toFixed(digits))
console.log('\n| page | mode | performance | accessibility | best practices | SEO | LCP ms | CLS | TBT ms | transfer KB |')
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const r of results) {
  const { performance: p, accessibility: a, 'best-practices': b, seo: s } = r.scores
  console.log(`| ${new URL(r.url).pathname} | ${r.mode} | ${p} | ${a} | ${b} | ${s} | ${cell(r.metrics.lcp)} | ${cell(r.metrics.cls, 3)} | ${cell(r.metrics.tbt)} | ${cell((r.metrics.transfer ?? 0) / 1024, 1)} |`)
}
const shortfalls = new Map<string, string[]>()
for (const r of results) for (const f of r.failing) shortfalls.set(`${f.category}: ${f.id} (${f.title})`, [...(shortfalls.get(`${f.category}: ${f.id} (${f.title})`) ?? []), `${new URL(r.url).pathname} ${r.mode}`])
if (shortfalls.size) {
  console.log('\nAudits below a perfect score:')
  for (const [audit, pages] of shortfalls) console.log(`- ${audit}: ${pages.length} page runs, e.g. ${pages.slice(0, 3).join(', ')}`)
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2))
