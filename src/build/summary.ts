/**
 * Figures printed after a build: pages per section and locale, the bytes a page of each type
 * loads, and those bytes against the budgets of src/assets/budgets.ts. Pure.
 */
import { budgets, gzipSize, overBudget } from '../assets/budgets.ts'
import { islandsOf, pageScripts } from '../assets/script-graph.ts'
import { readContents, type FromContents } from '../util/memo.ts'
import type { Assets, Diagnostic, OutputFile, RouteTable } from '../types.ts'

export interface Bytes { raw: number; gzip: number }

export interface Summary {
  /** Pages per section (page type) and locale. Example: { service: { en: 10, cn: 10 } } */
  pages: Record<string, Record<string, number>>
  /**
   * Bytes a page of each type loads, per kind of file: the average HTML, and the CSS and
   * JavaScript of the heaviest page sampled (the runtime plus the islands the page uses).
   */
  bytesPerPage: Record<string, { html: Bytes; css: Bytes; js: Bytes }>
  /** The JavaScript every page loads. */
  runtime: Bytes
  /** One line per budget a page type exceeds; empty when everything fits. */
  overBudget: string[]
  warnings: number
}

/** Pages sampled per type, so large sites are not gzipped whole. */
const SAMPLE = 25

/** `fromContents` spares a build gzipping the sampled pages the last one gzipped. */
export function summarise(table: RouteTable, files: OutputFile[], diagnostics: Diagnostic[], assets: Assets, fromContents: FromContents = readContents): Summary {
  const byPath = new Map(files.map((f) => [f.path, f]))
  const sizes = new Map<string, Bytes>()
  const sizeOf = (path: string): Bytes => {
    const known = sizes.get(path)
    if (known) return known
    const file = byPath.get(path)
    const size = file ? fromContents('size', file, (contents) => ({ raw: Buffer.byteLength(contents), gzip: gzipSize(contents) })) : { raw: 0, gzip: 0 }
    sizes.set(path, size)
    return size
  }
  const total = (urls: Iterable<string>) => [...new Set(urls)].map((u) => sizeOf(u.slice(1))).reduce(add, { raw: 0, gzip: 0 })
  const runtime = total(assets.runtime)
  const css = total([assets.stylesheet])
  /** The runtime and the scripts of every island the page's HTML marks. */
  const scriptsOf = (path: string) => {
    const file = byPath.get(path)
    return pageScripts(assets, file ? fromContents('islands', file, (contents) => islandsOf(String(contents))) : [])
  }

  const pages: Summary['pages'] = {}
  const byType = new Map<string, string[]>()
  for (const route of table.routes) {
    const counts = (pages[route.template] ??= {})
    counts[route.locale] = (counts[route.locale] ?? 0) + 1
    const sample = byType.get(route.template) ?? []
    if (sample.length < SAMPLE) byType.set(route.template, [...sample, route.output])
  }
  const bytesPerPage: Summary['bytesPerPage'] = {}
  const over: string[] = []
  for (const [type, outputs] of byType) {
    const html = outputs.map(sizeOf).reduce(add, { raw: 0, gzip: 0 })
    const js = outputs.map((o) => total(scriptsOf(o))).reduce(heavier, { raw: 0, gzip: 0 })
    bytesPerPage[type] = { html: { raw: Math.round(html.raw / outputs.length), gzip: Math.round(html.gzip / outputs.length) }, css, js }
    for (const message of [overBudget('pageJs', js.gzip), overBudget('pageCss', css.gzip)]) if (message) over.push(`${type}: ${message}`)
  }
  const runtimeOver = overBudget('sharedRuntime', runtime.gzip)
  return {
    pages, bytesPerPage, runtime,
    overBudget: runtimeOver ? [runtimeOver, ...over] : over,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  }
}

const add = (a: Bytes, b: Bytes): Bytes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip })
const heavier = (a: Bytes, b: Bytes): Bytes => (b.gzip > a.gzip ? b : a)

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

/** The summary as the terminal shows it. */
export function formatSummary(summary: Summary, timings: Record<string, number>): string {
  const locales = [...new Set(Object.values(summary.pages).flatMap((c) => Object.keys(c)))]
  const lines = [`pages        ${locales.map((l) => l.padStart(6)).join('')}`]
  for (const [section, counts] of Object.entries(summary.pages).sort()) {
    lines.push(`  ${section.padEnd(11)}${locales.map((l) => String(counts[l] ?? 0).padStart(6)).join('')}`)
  }
  const limit = (name: keyof typeof budgets) => `budget ${kb(budgets[name].limit)}`
  lines.push('', `bytes per page (raw / gzip)   html                css (${limit('pageCss')})  js (${limit('pageJs')})`)
  for (const [type, b] of Object.entries(summary.bytesPerPage).sort()) {
    const cell = (x: Bytes) => `${kb(x.raw)} / ${kb(x.gzip)}`.padEnd(20)
    lines.push(`  ${type.padEnd(28)}${cell(b.html)}${cell(b.css)}${cell(b.js)}`)
  }
  lines.push(`  shared runtime js: ${kb(summary.runtime.raw)} / ${kb(summary.runtime.gzip)} (${limit('sharedRuntime')})`)
  lines.push(summary.overBudget.length ? `over budget:\n${summary.overBudget.map((m) => `  ${m}`).join('\n')}` : 'every page fits its budgets')
  const stages = Object.entries(timings).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')
  lines.push('', `warnings: ${summary.warnings}`, `built in ${(timings.total! / 1000).toFixed(2)} s (${stages})`)
  return lines.join('\n')
}

/** Where a build's time went: wall time per stage, and CPU time per page summed over all threads. */
export function formatProfile(result: { timings: Record<string, number>; work?: { parse: number; render: number; minify: number; threads: number }; pages?: { reused: number; rendered: number } }): string {
  const lines = ['profile      wall ms']
  for (const [stage, ms] of Object.entries(result.timings)) lines.push(`  ${stage.padEnd(11)}${Math.round(ms).toString().padStart(8)}`)
  const { work, pages } = result
  if (work && pages) {
    const per = (ms: number, n: number) => (n ? `${(ms / n).toFixed(2)} ms each` : '')
    lines.push('', `cpu on ${work.threads} thread${work.threads === 1 ? '' : 's'}      ms`)
    lines.push(`  parse      ${Math.round(work.parse).toString().padStart(8)}`)
    lines.push(`  render     ${Math.round(work.render).toString().padStart(8)}   ${per(work.render, pages.rendered)}`)
    lines.push(`  minify     ${Math.round(work.minify).toString().padStart(8)}   ${per(work.minify, pages.rendered)}`)
    lines.push('', `pages: ${pages.rendered} rendered, ${pages.reused} re-used from the cache`)
  }
  return lines.join('\n')
}
