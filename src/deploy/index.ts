/**
 * What each host needs to serve the built site safely, added to the build's files:
 * - every page carries the Content-Security-Policy in a <meta> element (GitHub Pages and S3 set
 *   no headers), computed from the pages as built, so each inline script is allowed by its hash;
 * - `_headers` (Netlify, Cloudflare Pages, `clinic-build serve`) with the policy and the other
 *   security headers; `_redirects` where the configured host needs rules;
 * - `.nojekyll` and a default-language 404 page that shows the other languages' 404 pages
 *   (GitHub Pages); two CloudFront Functions and the KeyValueStore file they read (S3 behind CloudFront).
 * Pure.
 */
import { compute, hashOf, oncePer, oncePerKey, perKey, readContents, type FromContents, type Remember } from '../util/memo.ts'
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'
import { cloudFrontFunctions } from './cloudfront.ts'
import { withLanguageNotFound } from './not-found-language.ts'
import { contentSecurityPolicy, inlineTexts, securityHeaders, serializePolicy, type InlineTexts } from './policy.ts'
import { headersFile, noJekyll, redirectsFile, type HeaderRule } from './static-hosts.ts'

export interface DeployMemos {
  /** Lets the dev server skip the per-page work on pages that did not change. */
  remember?: Remember
  /** Each page's inline scripts by its version: a page the last build wrote is not read. */
  fromContents?: FromContents
  /**
   * Files with a policy of their own (the content editor's), added after the site's pages were
   * scanned, with the `_headers` rule that carries it.
   */
  folders?: { files: OutputFile[]; headers: HeaderRule }[]
}

export interface DeployedSite {
  files: OutputFile[]
  /**
   * One page again, after its HTML changed, with the policy the site has: undefined when the
   * page's inline scripts and styles differ from `before`'s, so the policy may not be the same.
   */
  redeploy: (page: OutputFile, before: OutputFile) => OutputFile | undefined
  /** The policy's meta element, which every page carries (a page patched in later gets it from policyApplied). */
  meta: string
}

/** A page with the policy's `meta` (DeployedSite.meta), as deploySite gives it, and its version. */
export const policyApplied = (page: { html: string; version: string }, meta: string): { html: string; version: string } =>
  ({ html: withMeta(page.html, meta), version: versionWithMeta(page.version, meta) })

const versionWithMeta = (version: string, meta: string) => hashOf(version, meta)

/** Whether two pages carry the same inline scripts and styles, so the same policy holds for either. */
export const sameInlineTexts = (a: string, b: string): boolean => JSON.stringify(inlineTexts(a)) === JSON.stringify(inlineTexts(b))

/** The site's files with what each host needs added, and what re-deploys a page whose body alone changed (src/build/body-edits.ts). */
export function deploySite(files: OutputFile[], table: RouteTable, site: SiteConfig, { remember = compute, fromContents = readContents, folders = [] }: DeployMemos = {}): DeployedSite {
  const pages = withLanguageNotFound(files, table, site)
  const textsOf = (page: OutputFile) => fromContents('inline texts', page, (contents) => sharedTexts(JSON.stringify(inlineTexts(text(contents)))))
  const html = pages.filter(isHtml).map(textsOf)
  const css = pages.filter((f) => f.path.endsWith('.css')).map((f) => text(f.contents))
  // Compared by text: a page edit seldom changes its inline scripts.
  const policy = remember('policy', [site, ...html.map(inlineKey), ...css], () => contentSecurityPolicy(site, { html, css }))
  const meta = `<meta http-equiv="Content-Security-Policy" content="${serializePolicy(policy, { meta: true })}">`
  // Kept per page like its markup: hashing every page's version again cost a dev rebuild 8 ms at 4,000 pages.
  const versionOf = remember('policy versions', [meta], () => perKey((version) => versionWithMeta(version, meta)))
  // Made when read, and not kept: the writer reads only the pages whose version it has not
  // written, and a site's pages kept here were most of a large build's memory.
  const deployed = (f: OutputFile): OutputFile => ({ path: f.path, get contents() { return withMeta(text(f.contents), meta) }, version: f.version && versionOf(f.path, f.version) })
  const headers = remember('headers', [policy], () => securityHeaders(policy))
  const redirects = redirectsFile(table, site)
  return {
    files: [
      ...pages.map((f) => (isHtml(f) ? deployed(f) : f)),
      ...folders.flatMap((folder) => folder.files),
      headersFile(headers, folders.map((folder) => folder.headers)),
      ...(redirects ? [redirects] : []),
      noJekyll,
      ...remember('cloudfront', [table, site, headers, JSON.stringify(folders.map((f) => f.headers))], () => cloudFrontFunctions(table, site, headers, folders.map((f) => f.headers))),
    ],
    redeploy: (page, before) => (inlineKey(textsOf(page)) === inlineKey(textsOf(before)) ? deployed(page) : undefined),
    meta,
  }
}

const inlineKey = oncePer((texts: InlineTexts) => JSON.stringify(texts))
// Pages carry the same few inline scripts: one object for each distinct set, which the build
// cache (keeping each page's set by its version) then stores once, not once a page (3 MB at 1,000 articles).
const sharedTexts = oncePerKey((json: string) => JSON.parse(json) as InlineTexts)
const isHtml = (f: OutputFile) => f.path.endsWith('.html')

const decoder = new TextDecoder()
const text = (contents: string | Uint8Array) => (typeof contents === 'string' ? contents : decoder.decode(contents))

/** The policy must come before any script or style it governs: right after the charset. */
function withMeta(html: string, meta: string): string {
  const charset = /<meta charset=[^>]*>/i.exec(html)
  if (charset) return html.slice(0, charset.index + charset[0].length) + meta + html.slice(charset.index + charset[0].length)
  return html.replace(/<head[^>]*>/i, (head) => head + meta)
}
