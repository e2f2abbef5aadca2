/**
 * `_headers` and `_redirects` in the format Netlify and Cloudflare Pages read from the output
 * folder (`clinic-build serve` applies `_headers` too), and `.nojekyll` for GitHub Pages. Pure.
 */
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'

/** Fingerprinted files never change under their name, so browsers may keep them for a year. */
export const IMMUTABLE_PATHS = '/assets/*'

/** Cache-Control of fingerprinted assets (kept a year) and of everything else (revalidated), on every host. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const REVALIDATE = 'public, max-age=0, must-revalidate'

/** A rule of `_headers`: the paths it matches and the headers it sets. */
export interface HeaderRule { path: string; headers: Record<string, string> }

/**
 * Security headers on every response, long caching on fingerprinted assets, then `folders`' own
 * rules (the content editor's policy at /admin/*). A path matching two rules gets the headers of
 * both: Netlify (and `clinic-build serve`, which reads the file with Netlify's parser) lets the
 * later value replace the earlier one, but Cloudflare Pages joins the two with a comma, and a
 * browser then enforces both policies. So a folder's rule first detaches, with Cloudflare's
 * `! Name` line, each header the site-wide rule sets and the folder sets again; Netlify's parser
 * skips a line without a colon.
 */
export function headersFile(headers: Record<string, string>, folders: HeaderRule[] = []): OutputFile {
  const block = (path: string, values: Record<string, string>, detached: string[] = []) =>
    [path, ...detached.map((name) => `  ! ${name}`), ...Object.entries(values).map(([k, v]) => `  ${k}: ${v}`)].join('\n')
  const setSiteWide = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase())
  const text = [
    '# Response headers for Netlify and Cloudflare Pages, written by clinic-build (clinic-build serve applies them too).',
    block('/*', headers),
    block(IMMUTABLE_PATHS, { 'Cache-Control': IMMUTABLE }),
    ...folders.map((rule) => block(rule.path, rule.headers, Object.keys(rule.headers).filter(setSiteWide))),
  ].join('\n')
  return { path: '_headers', contents: `${text}\n` }
}

/**
 * Host rules, or nothing where the host needs none:
 * - Netlify serves `/404.html` for every missing page, so each other language gets its own
 *   rule; the optional language redirect of `/` skips visitors who already chose (the cookie).
 * - Cloudflare Pages finds the nearest `404.html` by itself and refuses 404 rules and
 *   language conditions, so it gets no rules.
 * - GitHub Pages and S3 read no `_redirects`.
 */
export function redirectsFile(table: RouteTable, site: SiteConfig): OutputFile | undefined {
  if (site.deploy.host !== 'netlify') return undefined
  const others = site.locales.filter((l) => l.code !== site.defaultLocale)
  const notFound = (code: string) => table.routes.find((r) => r.status === 404 && r.locale === code)?.url
  const lines = ['# Netlify rules, written by clinic-build. Each language other than the default has its own 404 page.']
  if (site.deploy.languageRedirect) {
    lines.push('/  /index.html  200!  Cookie=i18n_redirected')
    for (const l of others) lines.push(`/  /${l.code}/  302!  Language=${l.lang}`)
  }
  for (const l of others) {
    const page = notFound(l.code)
    if (page) lines.push(`/${l.code}/*  ${page}  404`)
  }
  return { path: '_redirects', contents: `${lines.join('\n')}\n` }
}

/** GitHub Pages serves files whose names start with "_" only without Jekyll. */
export const noJekyll: OutputFile = { path: '.nojekyll', contents: '' }
