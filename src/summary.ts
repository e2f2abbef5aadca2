/** Figures printed after a build: pages per section and locale, bytes per page type. Pure. */
import { gzipSync } from 'node:zlib'
import type { Diagnostic, OutputFile, RouteTable } from './types.ts'

export interface Bytes { raw: number; gzip: number }

export interface Summary {
  /** Pages per section (page type) and locale. Example: { service: { en: 10, cn: 10 } } */
  pages: Record<string, Record<string, number>>
  /** Average bytes a page of each type loads, per kind of file. */
  bytesPerPage: Record<string, { html: Bytes; css: Bytes; js: Bytes }>
  warnings: number
}

/** Pages sampled per type when averaging HTML sizes, so large sites are not gzipped whole. */
const SAMPLE = 25

export function summarise(table: RouteTable, files: OutputFile[], diagnostics: Diagnostic[]): Summary {
  const byPath = new Map(files.map((f) => [f.path, f]))
  const sizeOf = (f: OutputFile | undefined): Bytes => {
    if (!f) return { raw: 0, gzip: 0 }
    const buf = typeof f.contents === 'string' ? Buffer.from(f.contents) : f.contents
    return { raw: buf.length, gzip: gzipSync(buf).length }
  }
  const css = sizeOf(files.find((f) => f.path.endsWith('.css')))
  const js = files.filter((f) => f.path.endsWith('.js')).map(sizeOf).reduce(add, { raw: 0, gzip: 0 })
  const pages: Summary['pages'] = {}
  const byType = new Map<string, string[]>()
  for (const route of table.routes) {
    const counts = (pages[route.template] ??= {})
    counts[route.locale] = (counts[route.locale] ?? 0) + 1
    const sample = byType.get(route.template) ?? []
    if (sample.length < SAMPLE) byType.set(route.template, [...sample, route.output])
  }
  const bytesPerPage: Summary['bytesPerPage'] = {}
  for (const [type, outputs] of byType) {
    const total = outputs.map((o) => sizeOf(byPath.get(o))).reduce(add, { raw: 0, gzip: 0 })
    bytesPerPage[type] = { html: { raw: Math.round(total.raw / outputs.length), gzip: Math.round(total.gzip / outputs.length) }, css, js }
  }
  return { pages, bytesPerPage, warnings: diagnostics.filter((d) => d.severity === 'warning').length }
}

const add = (a: Bytes, b: Bytes): Bytes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip })

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

/** The summary as the terminal shows it. */
export function formatSummary(summary: Summary, timings: Record<string, number>): string {
  const locales = [...new Set(Object.values(summary.pages).flatMap((c) => Object.keys(c)))]
  const lines = [`pages        ${locales.map((l) => l.padStart(6)).join('')}`]
  for (const [section, counts] of Object.entries(summary.pages).sort()) {
    lines.push(`  ${section.padEnd(11)}${locales.map((l) => String(counts[l] ?? 0).padStart(6)).join('')}`)
  }
  lines.push('', 'bytes per page (raw / gzip)   html                css                 js')
  for (const [type, b] of Object.entries(summary.bytesPerPage).sort()) {
    const cell = (x: Bytes) => `${kb(x.raw)} / ${kb(x.gzip)}`.padEnd(20)
    lines.push(`  ${type.padEnd(28)}${cell(b.html)}${cell(b.css)}${cell(b.js)}`)
  }
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
