/**
 * `clinic-build check`: what an editor can get wrong, found in the sources and the built site
 * before it ships. Reads the site folder, the output folder and the last build's manifest (the
 * only I/O besides the local server, the browser and the check cache), then runs each check:
 *
 *   translations   pages and messages in every locale, text in the page's language
 *   compliance     Singapore's healthcare advertising rules (src/compliance/rules.yaml)
 *   hosts          the files written for each host fit its limits (CloudFront Functions and
 *                  KeyValueStore; the configured host's documented file, size and rule limits)
 *   links          linkinator over the built site, answered as `serve` answers it (folder-fetch.ts)
 *   structured-data  every page's JSON-LD against the schema.org vocabulary (structured-data.ts)
 *   accessibility  content rules on every page from its HTML (content-rules.ts), and axe-core in
 *                  Chromium, with the security policy in force, on one page of each kind (plan.ts)
 *   budgets        the CSS and JavaScript each page loads, gzipped, from the built files and the
 *                  script graph, confirmed in the browser on the pages it opens
 *
 * Links, content rules and browser visits are kept in the check cache (cache.ts) by the hash of
 * what they judged, so a run judges what changed. `all` ignores the cache and opens every page.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSize } from '../assets/budgets.ts'
import { resolveFolders } from '../build/folders.ts'
import { loadManifest, manifestTime, type PageManifest } from '../build/manifest.ts'
import { contentHash } from '../build/write.ts'
import { packageDir } from '../util/package.ts'
import { hashOf, oncePerKey } from '../util/memo.ts'
import { UsageError } from '../errors.ts'
import { listFiles, readProject } from '../content/read.ts'
import { loadHeaderRules } from '../serve/index.ts'
import { parseSite } from '../content/site.ts'
import { groupBy } from '../util/group.ts'
import type { Diagnostic } from '../types.ts'
import { accessibilityFindings } from './accessibility.ts'
import type { PageVisit } from './browser.ts'
import { budgetFindings, staticLoads } from './budgets.ts'
import { readDigest, type PageDigest } from './digest.ts'
import { CheckCache, checkCacheTime, checkVersion, loadCheckCache, saveCheckCache } from './cache.ts'
import { checkHostFiles, checkHostLimits } from './hosts.ts'
import { contentFindings, staticRules } from './content-rules.ts'
import { lintCompliance } from './compliance.ts'
import { checkLinks, linkRun } from './links.ts'
import { browserServed, linksServed, type BrowserVisits, type LinksRunning } from './served.ts'
import { BROWSER } from './chromium.ts'
import { CHECKS, type CheckName } from './names.ts'
import type { CheckCount } from './report.ts'
import { kindOf, planVisits, type CheckedPage } from './plan.ts'
import { checkTranslations } from './translations.ts'
import { structuredDataFindings } from './structured-data.ts'
import { ADMIN_DIR } from '../admin/config.ts'

export { CHECKS, type CheckName } from './names.ts'
export { formatCounts, type CheckCount } from './report.ts'

export interface CheckOptions {
  root?: string
  out?: string
  /** The checks to run; all by default. */
  only?: readonly CheckName[]
  /** Ignore the check cache and open every page in the browser (for a release). */
  all?: boolean
  /** Called as each check starts, and as the browser visits pages. */
  onProgress?: (step: { check: CheckName; done?: number; total?: number }) => void
}

export interface CheckReport {
  /** Every finding, errors and warnings, sorted by file and line. */
  findings: Diagnostic[]
  /** Links to other sites: listed, not fetched. */
  external: { url: string; from: string }[]
  pages: number
  /** Per check run. */
  counts: Partial<Record<CheckName, CheckCount>>
  /** The browser that opened pages, if any was opened (chromium.ts). */
  browser?: { path: string; hint?: string }
}

export async function check(options: CheckOptions = {}): Promise<CheckReport> {
  const { root, out } = resolveFolders(options)
  if (!existsSync(join(out, 'index.html'))) throw new UsageError(`${out} holds no built site: build it first with \`clinic-build --out ${options.out ?? 'dist'}\`.`)
  // With no check cache (or with --all) every page is judged and every kind of page opened:
  // Chromium starts now, and linkinator runs as soon as the pages are listed, while the files are
  // read. After a build since the last check, some pages are likely to be judged again:
  // linkinator's thread starts now too, to be ready when they are known.
  const checked = checkCacheTime(root)
  const judgesAll = options.all || checked === undefined
  const builtSince = (manifestTime(root, out) ?? Infinity) > (checked ?? 0)
  const wantsBrowser = runsCheck(options, 'accessibility') || runsCheck(options, 'budgets')
  const early = {
    browser: wantsBrowser && judgesAll ? browserServed(out) : undefined,
    links: runsCheck(options, 'links') && (judgesAll || builtSince) ? linksServed(out) : undefined,
  }
  try {
    return await checkFolder(root, out, options, judgesAll, early)
  } finally {
    // Unless they were given their pages.
    void early.browser?.visit([])
    early.links?.start(linkRun([], [], ''))
  }
}

const runsCheck = (options: CheckOptions, name: CheckName) => !options.only || options.only.includes(name)

async function checkFolder(root: string, out: string, options: CheckOptions, judgesAll: boolean, early: { browser?: BrowserVisits; links?: LinksRunning }): Promise<CheckReport> {
  const runs = (name: CheckName) => runsCheck(options, name)
  const report: CheckReport = { findings: [], external: [], pages: 0, counts: {} }
  const timed = async (name: CheckName, run: (count: CheckCount) => Diagnostic[] | Promise<Diagnostic[]>) => {
    if (!runs(name)) return
    options.onProgress?.({ check: name })
    const started = performance.now()
    const count: CheckCount = { judged: 0, browser: 0, unchanged: 0, ms: 0 }
    report.findings.push(...await run(count))
    report.counts[name] = { ...count, ms: performance.now() - started }
  }

  const project = await readProject(root, packageDir)
  const { site, diagnostics } = parseSite(project.siteFile)
  if (!site) return { ...report, findings: diagnostics }
  const files = await listFiles(out)
  const everyPage = files.filter(isSitePage)
  if (judgesAll) early.links?.start(linkRun(everyPage, everyPage, site.baseUrl))
  const manifest = loadManifest(root, out)
  const version = await checkVersion(packageDir)
  const cache = options.all ? new CheckCache(new Map()) : loadCheckCache(root, version)
  const pages = readPages(out, files, manifest, project.content, cache, site.baseUrl)
  report.pages = pages.length
  // Content rules: every page, from its HTML, unless this HTML (and the Markdown its findings point into) was judged before.
  const contentProblems = new Map<string, Diagnostic[]>()
  const judgeContent = (count: CheckCount) => {
    const remember = cache.remembering(count)
    for (const page of pages) contentProblems.set(page.path, remember(`content ${page.hash} ${page.source ? hashOf(page.source.text) : ''}`, () => contentFindings(page, page.source)))
    return [...contentProblems.values()].flat()
  }

  // The browser's pages: one of each kind not judged before, and those whose content needs it.
  const frame = frameVersion(project, out, files)
  const kindKey = (kind: string) => `kind ${kind} ${frame}`
  const pageKey = (page: CheckedPage) => `page ${page.hash} ${frame}`
  const plan = !runs('accessibility') && !runs('budgets') ? { visits: [] }
    : options.all ? { visits: pages.map((page) => ({ page, kinds: [kindOf(page)].filter((k) => k !== undefined) })) }
      : planVisits(pages, (kind) => cache.get(kindKey(kind)) !== undefined, (page) => cache.get(pageKey(page)) !== undefined)

  // Chromium and linkinator read the site as clients, each on a thread of its own (served.ts),
  // while this thread runs the checks that judge the files.
  const browser = plan.visits.length === 0 ? undefined : early.browser ?? browserServed(out)
  const visits: Promise<PageVisit[]> = browser?.visit(plan.visits.map((v) => v.page.path), (done) => options.onProgress?.({ check: 'accessibility', done, total: plan.visits.length })) ?? Promise.resolve([])
  visits.catch(() => {}) // awaited below
  if (browser) report.browser = BROWSER
  if (runs('links') || plan.visits.length > 0) {
    await loadHeaderRules(out, (message) => report.findings.push({ code: 'InvalidHeaders', severity: 'error', file: '_headers', message }))
  }
  const links = timed('links', async (count) => {
    const links = linkJudgements(pages, files, cache, count)
    const stale = links.stale.map((s) => s.page)
    const checked = await checkLinks(pages, site.baseUrl, () => early.links ?? linksServed(out), { judged: stale })
    const findings = groupBy(checked.findings, (f) => f.file ?? '')
    const external = groupBy(checked.external, (e) => e.from)
    for (const { page, key } of links.stale) {
      const judgement = { findings: findings.get(page.path) ?? [], external: (external.get(page.path) ?? []).map((e) => e.url) }
      cache.set(key, judgement)
      links.known.push({ page, judgement })
    }
    const seen = new Set<string>()
    for (const { page, judgement } of links.known.sort((a, b) => a.page.path.localeCompare(b.page.path))) {
      for (const url of judgement.external ?? []) if (!seen.has(url)) { seen.add(url); report.external.push({ url, from: page.path }) }
    }
    report.external.sort((a, b) => a.url.localeCompare(b.url))
    return links.known.flatMap((k) => k.judgement.findings)
  })
  links.catch(() => {}) // awaited below
  // Chromium's second tab waits for the link check (browser.ts visitAll).
  void links.then(browser?.widen, browser?.widen)
  await timed('translations', (count) => checkTranslations(pages, project.localeFiles, site, cache.remembering(count)))
  await timed('compliance', (count) => lintCompliance({
    sources: [project.siteFile, ...project.content, ...project.localeFiles], staticFiles: project.staticFiles, contentImages: project.contentImages, site, pages,
  }, cache.remembering(count)))
  await timed('hosts', () => {
    const sizeOf = (path: string) => statSync(join(out, path)).size
    const textOf = (path: string) => (files.includes(path) ? readFileSync(join(out, path), 'utf8') : undefined)
    return [...checkHostFiles(files, sizeOf, textOf, site), ...checkHostLimits(files, sizeOf, textOf, site)]
  })
  await timed('structured-data', (count) => {
    const remember = cache.remembering(count)
    return pages.flatMap((page) => remember(`structured data ${page.hash}`, () => structuredDataFindings(page.path, page.html)))
  })
  await timed('accessibility', async (count) => {
    const fromContent = judgeContent(count)
    const seen = await visits
    count.browser = seen.length
    const fromBrowser = seen.flatMap((v) => {
      // A rule the content rules judged on this page is reported once, where they point (the Markdown).
      const judged = new Set((contentProblems.get(v.path) ?? []).map((d) => d.code))
      return accessibilityFindings([{ ...v, violations: v.violations.filter((x) => !(staticRules().includes(x.id) && judged.has(`axe/${x.id}`))) }])
    })
    rememberPasses(seen, fromBrowser)
    return [...fromContent, ...fromBrowser.map((d) => withKindHint(d, plan.visits))]
  })
  await timed('budgets', async (count) => {
    const gzipped = oncePerKey((path: string) => gzipSize(readFileSync(join(out, path))))
    const vouched = manifest ? pages.filter((p) => p.facts) : []
    const isVouched = new Set(vouched.map((p) => p.path))
    count.judged = vouched.length
    // The browser confirms each kind, and is the only judge of pages the manifest does not vouch for.
    const seen = await visits
    count.browser = seen.length
    const unvouched = seen.filter((v) => !isVouched.has(v.path))
    return [...budgetFindings(vouched.map((p) => ({ path: p.path, loaded: staticLoads(p.digest, manifest!.assets) })), gzipped),
      ...budgetFindings(unvouched, gzipped, vouched.length === 0)]
  })
  await links

  /** Browser judgements without an error are kept: for the kinds a visit stood for, and for the page itself. */
  function rememberPasses(seen: PageVisit[], findings: Diagnostic[]) {
    const failed = new Set(findings.filter((d) => d.severity === 'error').map((d) => d.file))
    const opened = new Set(seen.map((v) => v.path))
    for (const { page, kinds } of plan.visits) {
      if (failed.has(page.path) || !opened.has(page.path)) continue
      for (const kind of kinds) cache.set(kindKey(kind), { findings: [] })
      cache.set(pageKey(page), { findings: [] })
    }
  }

  saveCheckCache(root, version, cache, options.only !== undefined)
  // Reported in the order of CHECKS, whatever order they ran in.
  report.counts = Object.fromEntries(CHECKS.flatMap((name) => (report.counts[name] ? [[name, report.counts[name]]] : [])))
  return sorted(report)
}

/**
 * What a run knew of a page's file, kept in the check cache by its path: while its size and time
 * are the same, so are its hash and digest, and its HTML is read only if a check judges it.
 */
interface PageRecord { size: number; mtimeMs: number; hash: string; digest: PageDigest }

/** The built pages, each with its hash, its digest, what the manifest of the last build says of it, and its Markdown. */
function readPages(out: string, files: string[], manifest: PageManifest | undefined, content: { path: string; text: string }[], cache: CheckCache, baseUrl: string): CheckedPage[] {
  const sources = new Map(content.map((f) => [f.path, f]))
  const records = pageRecords(cache, baseUrl)
  const pages = files.filter(isSitePage).map((path) => {
    const file = join(out, path)
    const { size, mtimeMs } = statSync(file)
    const last = records.get(path)
    const recordOf = (text: string): PageRecord => ({ size, mtimeMs, hash: contentHash(text), digest: readDigest(text, baseUrl) })
    let html: string | undefined
    const record = last?.size === size && last.mtimeMs === mtimeMs ? last : recordOf(html = readFileSync(file, 'utf8'))
    records.set(path, record)
    const recorded = manifest?.pages[path]
    const facts = recorded?.size === size && recorded.mtimeMs === mtimeMs ? recorded : undefined
    const source = facts?.source ? sources.get(facts.source) : undefined
    return {
      path, hash: record.hash, digest: record.digest, facts, ...(source ? { source: { file: source.path, text: source.text } } : {}),
      get html() { return (html ??= readFileSync(file, 'utf8')) },
    }
  })
  records.done()
  return pages
}

/**
 * The pages' records in the check cache. Each names the files it links to by their places in one
 * list of those files, kept beside the records: most pages link to the same few dozen, and written
 * out on every record they made two thirds of the cache (6.3 of 9.3 MB at 4,000 articles), which
 * every run reads and writes.
 */
function pageRecords(cache: CheckCache, baseUrl: string) {
  type Stored = Omit<PageRecord, 'digest'> & { digest: Omit<PageDigest, 'targets'> & { targets: number[] } }
  const keyOf = (path: string) => `file ${path} ${baseUrl}`
  const stored = cache.get<string[]>(TARGETS) ?? []
  const places = new Map<string, number>()
  const placeOf = (target: string) => {
    if (!places.has(target)) places.set(target, places.size)
    return places.get(target)!
  }
  return {
    get: (path: string): PageRecord | undefined => {
      const record = cache.get<Stored>(keyOf(path))
      return record && { ...record, digest: { ...record.digest, targets: record.digest.targets.map((at) => stored[at]!) } }
    },
    set: (path: string, record: PageRecord) => cache.set(keyOf(path), { ...record, digest: { ...record.digest, targets: record.digest.targets.map(placeOf) } }),
    /** Keeps the list the records set in this run name their files by. */
    done: () => cache.set(TARGETS, [...places.keys()]),
  }
}
const TARGETS = 'file targets'

/** The content editor (admin/) is no page of the site: no visitor sees it, no budget applies. */
const isSitePage = (file: string) => file.endsWith('.html') && !file.startsWith(`${ADMIN_DIR}/`)

/**
 * The links of each page, with the key of their judgement: the page, every page it links to
 * (their anchors may have changed) and the list of other files (an image may be gone).
 */
function linkJudgements(pages: CheckedPage[], files: string[], cache: CheckCache, count: CheckCount) {
  const hashes = new Map(pages.map((p) => [p.path, p.hash]))
  const others = hashOf(...files.filter((f) => !f.endsWith('.html')))
  const known: { page: CheckedPage; judgement: { findings: Diagnostic[]; external?: string[] } }[] = []
  const stale: { page: CheckedPage; key: string }[] = []
  for (const page of pages) {
    const { targets } = page.digest
    const key = `links ${page.hash} ${others} ${hashOf(...targets.map((t) => `${t} ${hashes.get(t) ?? '-'}`))}`
    const judgement = cache.get(key)
    if (judgement) { count.unchanged++; known.push({ page, judgement }) } else { count.judged++; stale.push({ page, key }) }
  }
  return { known, stale }
}

/**
 * What every page's frame depends on besides its own HTML: the templates, the stylesheets and
 * scripts the build wrote, the locales' messages and the site configuration.
 */
function frameVersion(project: Awaited<ReturnType<typeof readProject>>, out: string, files: string[]): string {
  const assets = files.filter((f) => /^assets\/.*\.(css|js)$/.test(f)).sort()
  return hashOf(...[...project.templateFiles, ...project.styleFiles, ...project.localeFiles, project.siteFile].map((f) => f.text),
    ...assets.map((f) => contentHash(readFileSync(join(out, f)))))
}

/** A finding on a page that stood for its kind says so: the template is the likely cause. */
function withKindHint(finding: Diagnostic, planned: { page: CheckedPage; kinds: string[] }[]): Diagnostic {
  const kinds = planned.find((v) => v.page.path === finding.file)?.kinds ?? []
  if (kinds.length === 0) return finding
  const described = kinds.map((k) => { const [template, locale] = k.split(' '); return `the ${template} pages in ${locale}` }).join(', ')
  return { ...finding, hint: `${finding.hint ?? ''} Judged on this page for ${described}: look in the template, its CSS and its islands first.`.trim() }
}

function sorted(report: CheckReport): CheckReport {
  const key = (d: Diagnostic) => `${d.file ?? ''}\u0000${String(d.line ?? 0).padStart(8, '0')}\u0000${String(d.column ?? 0).padStart(8, '0')}`
  return { ...report, findings: report.findings.sort((a, b) => key(a).localeCompare(key(b))) }
}
