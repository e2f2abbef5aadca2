/**
 * Host files: what the build wrote for each host must fit that host's documented limits: an error
 * for the host the site is deployed to (`deploy.host`), a warning for the others. The other hosts'
 * documented limits (files, sizes, `_headers` and `_redirects` rules) are checkHostLimits'. Pure:
 * `sizeOf` and `textOf` give a built file's bytes and text (undefined when there is no such file).
 */
import type { Diagnostic, SiteConfig } from '../types.ts'
import { checkCloudFront } from './hosts-cloudfront.ts'

export function checkHostFiles(files: string[], sizeOf: (path: string) => number, textOf: (path: string) => string | undefined, site: SiteConfig): Diagnostic[] {
  return checkCloudFront(files, sizeOf, textOf, site.deploy.host === 's3-cloudfront' ? 'error' : 'warning')
}

/** A host's documented limits on what is uploaded, each checked when the site is deployed there. */
interface Limits {
  name: string
  /** The most files a site may hold, and what the docs say of it. */
  files?: { most: number; note: string }
  /** The largest file, in bytes, and the whole site. */
  fileBytes?: { most: number; shown: string }
  siteBytes?: { most: number; shown: string }
  /** `_headers`: rules, and characters in one header line. */
  headerRules?: number
  headerLine?: number
  /** `_redirects`: rules without and with a wildcard or placeholder, and characters in one rule. */
  redirects?: { static: number; dynamic: number; line: number }
}

const MiB = 1024 * 1024

/**
 * From each host's documentation (December 2026): Cloudflare Pages' platform limits, headers and
 * redirects pages; GitHub Pages' limits. Netlify documents no limit a site of this kind reaches
 * (its redirects page only warns that a very large rule set may fail the deploy).
 */
export const HOST_LIMITS: Partial<Record<SiteConfig['deploy']['host'], Limits>> = {
  'cloudflare-pages': {
    name: 'Cloudflare Pages',
    files: { most: 20_000, note: 'on the Free plan (100,000 on paid plans, with PAGES_WRANGLER_MAJOR_VERSION=4)' },
    fileBytes: { most: 25 * MiB, shown: '25 MiB' },
    headerRules: 100,
    headerLine: 2_000,
    redirects: { static: 2_000, dynamic: 100, line: 1_000 },
  },
  'github-pages': {
    name: 'GitHub Pages',
    fileBytes: { most: 100 * MiB, shown: '100 MiB' },
    siteBytes: { most: 1_000_000_000, shown: '1 GB' },
  },
}

/** Files the host reads as its configuration, not as files of the site. */
const HOST_CONFIG = new Set(['_headers', '_redirects'])

/**
 * Every documented limit of the configured host (`deploy.host`) that the output exceeds, as an
 * error: the host would refuse the upload or ignore rules past its limit. `textOf` gives a built
 * file's text, undefined when there is no such file. Pure.
 */
export function checkHostLimits(files: string[], sizeOf: (path: string) => number, textOf: (path: string) => string | undefined, site: SiteConfig): Diagnostic[] {
  const limits = HOST_LIMITS[site.deploy.host]
  if (!limits) return []
  const found: Diagnostic[] = []
  const error = (code: string, message: string, hint: string, file?: string, line?: number) => found.push({ code, severity: 'error', message, hint, ...(file ? { file } : {}), ...(line ? { line } : {}) })
  const uploaded = files.filter((f) => !HOST_CONFIG.has(f))
  if (limits.files && uploaded.length > limits.files.most) {
    error('TooManyFilesForHost', `The site has ${uploaded.length.toLocaleString('en')} files; ${limits.name} accepts at most ${limits.files.most.toLocaleString('en')} ${limits.files.note}.`, 'Remove files under static/ or content/ that no page uses, or deploy to another host.')
  }
  let total = 0
  for (const file of uploaded) {
    const bytes = sizeOf(file)
    total += bytes
    if (limits.fileBytes && bytes > limits.fileBytes.most) {
      error('FileTooLargeForHost', `This file is ${(bytes / MiB).toFixed(1)} MiB; ${limits.name} accepts files of at most ${limits.fileBytes.shown}.`, 'Make it smaller (an image resized, a video hosted elsewhere), or link to it where it is kept.', file)
    }
  }
  if (limits.siteBytes && total > limits.siteBytes.most) {
    error('SiteTooLargeForHost', `The site is ${(total / 1e9).toFixed(2)} GB; ${limits.name} publishes sites of at most ${limits.siteBytes.shown}.`, 'Resize large images under content/ and static/, or deploy to another host.')
  }
  const headers = textOf('_headers')
  if (headers !== undefined) {
    const lines = headers.split('\n')
    const rules = lines.filter((l) => l.startsWith('/') || l.startsWith('https://')).length
    if (limits.headerRules && rules > limits.headerRules) {
      error('TooManyHeaderRules', `_headers has ${rules} rules; ${limits.name} reads at most ${limits.headerRules}.`, 'Fewer folders with headers of their own.', '_headers')
    }
    lines.forEach((line, i) => {
      const header = line.trim()
      if (limits.headerLine && /^\s/.test(line) && header.length > limits.headerLine) {
        error('HeaderTooLong', `This header is ${header.length.toLocaleString('en')} characters; ${limits.name} accepts at most ${limits.headerLine.toLocaleString('en')}.`, 'The policy lists the hash of each distinct inline script and style: fewer distinct inline scripts (a template that writes page data inline) keep it short.', '_headers', i + 1)
      }
    })
  }
  const redirects = textOf('_redirects')
  if (redirects !== undefined && limits.redirects) {
    const { static: most, dynamic: mostDynamic, line: longest } = limits.redirects
    const rules = redirects.split('\n').map((text, i) => ({ text: text.trim(), line: i + 1 })).filter((r) => r.text && !r.text.startsWith('#'))
    const dynamic = rules.filter((r) => /[*]|(^|\/):[A-Za-z]/.test(r.text.split(/\s+/)[0]!)).length
    if (rules.length - dynamic > most || dynamic > mostDynamic) {
      error('TooManyRedirectRules', `_redirects has ${rules.length - dynamic} static and ${dynamic} dynamic rules (with * or a :placeholder); ${limits.name} reads at most ${most.toLocaleString('en')} static and ${mostDynamic} dynamic.`, 'Join rules with a wildcard, or move redirects to the host\'s bulk redirects.', '_redirects')
    }
    for (const rule of rules.filter((r) => r.text.length > longest)) {
      error('RedirectRuleTooLong', `This rule is ${rule.text.length.toLocaleString('en')} characters; ${limits.name} accepts at most ${longest.toLocaleString('en')}.`, 'Shorten its addresses.', '_redirects', rule.line)
    }
  }
  return found
}
