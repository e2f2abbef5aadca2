/**
 * `clinic-build check`: what an editor can get wrong, found in the sources and the built site
 * before it ships. Reads the site folder and the output folder (the only I/O besides the local
 * server and the browser), then runs each check over plain data:
 *
 *   links          linkinator over the built site served on 127.0.0.1
 *   translations   pages and messages in every locale, text in the page's language
 *   compliance     Singapore's healthcare advertising rules (src/compliance/rules.yaml)
 *   hosts          the files written for each host fit its limits (CloudFront Functions)
 *   accessibility  axe-core over every built page in Chromium, with the security policy in force
 *   budgets        the CSS and JavaScript each page loads, gzipped, against src/assets/budgets.ts
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSize } from '../assets/budgets.ts'
import { resolveFolders } from '../build/folders.ts'
import { packageDir } from '../util/package.ts'
import { UsageError } from '../errors.ts'
import { listFiles, readProject } from '../content/read.ts'
import { loadHeaderRules, startServer } from '../serve/index.ts'
import { parseSite } from '../content/site.ts'
import type { Diagnostic } from '../types.ts'
import { accessibilityFindings } from './accessibility.ts'
import { visitPages, type PageVisit } from './browser.ts'
import { budgetFindings } from './budgets.ts'
import { checkHostFiles } from './hosts.ts'
import { lintCompliance } from './compliance.ts'
import { checkLinks } from './links.ts'
import type { CheckName } from './names.ts'
import { checkTranslations } from './translations.ts'

export { CHECKS, type CheckName } from './names.ts'

export interface CheckOptions {
  root?: string
  out?: string
  /** The checks to run; all by default. */
  only?: readonly CheckName[]
  /** Called as each check starts, and as the browser visits pages. */
  onProgress?: (step: { check: CheckName; done?: number; total?: number }) => void
}

export interface CheckReport {
  /** Every finding, errors and warnings, sorted by file and line. */
  findings: Diagnostic[]
  /** Links to other sites: listed, not fetched. */
  external: { url: string; from: string }[]
  pages: number
  /** Milliseconds per check run. */
  timings: Partial<Record<CheckName, number>>
}

export async function check(options: CheckOptions = {}): Promise<CheckReport> {
  const { root, out } = resolveFolders(options)
  if (!existsSync(join(out, 'index.html'))) throw new UsageError(`${out} holds no built site: build it first with \`clinic-build --out ${options.out ?? 'dist'}\`.`)
  const runs = (name: CheckName) => !options.only || options.only.includes(name)
  const report: CheckReport = { findings: [], external: [], pages: 0, timings: {} }
  const timed = async (name: CheckName, run: () => Diagnostic[] | Promise<Diagnostic[]>) => {
    if (!runs(name)) return
    options.onProgress?.({ check: name })
    const started = performance.now()
    report.findings.push(...await run())
    report.timings[name] = performance.now() - started
  }

  const project = await readProject(root, packageDir)
  const { site, diagnostics } = parseSite(project.siteFile)
  if (!site) return { ...report, findings: diagnostics }
  const files = await listFiles(out)
  const pagePaths = files.filter((f) => f.endsWith('.html'))
  const pages = await Promise.all(pagePaths.map(async (path) => ({ path, html: await readFile(join(out, path), 'utf8') })))
  report.pages = pages.length

  await timed('translations', () => checkTranslations(pages, project.localeFiles, site))
  await timed('compliance', () => lintCompliance({ sources: [project.siteFile, ...project.content, ...project.localeFiles], staticFiles: project.staticFiles, contentImages: project.contentImages, site, pages }))
  await timed('hosts', () => checkHostFiles(files, (path) => statSync(join(out, path)).size, site))
  if (!runs('links') && !runs('accessibility') && !runs('budgets')) return sorted(report)

  const headerRules = await loadHeaderRules(out, (message) => report.findings.push({ code: 'InvalidHeaders', severity: 'error', file: '_headers', message }))
  const server = await startServer({ dir: out, port: 0, headerRules })
  try {
    await timed('links', async () => {
      const links = await checkLinks(pages, server.url, site.baseUrl)
      report.external = links.external
      return links.findings
    })
    // One visit of every page in the browser serves both checks; the first to run makes it.
    let visits: PageVisit[] | undefined
    const visit = async () => (visits ??= await visitPages(server.url, pagePaths, (done) => options.onProgress?.({ check: 'accessibility', done, total: pagePaths.length })))
    await timed('accessibility', async () => accessibilityFindings(await visit()))
    await timed('budgets', async () => budgetFindings(await visit(), (path) => gzipSize(readFileSync(join(out, path)))))
  } finally {
    await server.close()
  }
  return sorted(report)
}

function sorted(report: CheckReport): CheckReport {
  const key = (d: Diagnostic) => `${d.file ?? ''}\u0000${String(d.line ?? 0).padStart(8, '0')}\u0000${String(d.column ?? 0).padStart(8, '0')}`
  return { ...report, findings: report.findings.sort((a, b) => key(a).localeCompare(key(b))) }
}
