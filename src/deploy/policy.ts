/**
 * The security policy of the site: a Content-Security-Policy without 'unsafe-inline' or
 * 'unsafe-eval' for scripts, whose inline scripts are allowed one by one by the SHA-256 hash of
 * their text as built, and whose other sources come from the site configuration (the font
 * service, the tag manager, the map frame, the form service). Pure.
 */
import { createHash } from 'node:crypto'
import type { SiteConfig } from '../types.ts'

export type Directives = Record<string, string[]>

/** What the policy needs to know about the built site. */
export interface BuiltContent {
  /** Every page's HTML as written, or what inlineTexts() found in it. */
  html: (string | InlineTexts)[]
  /** Every stylesheet, as written. */
  css: string[]
}

/** The origins Google's tags load from and report to (gtm.js, gtag.js and their hits). */
const GOOGLE_TAGS = { script: ['https://www.googletagmanager.com'], connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'], img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'] }

export function contentSecurityPolicy(site: SiteConfig, built: BuiltContent): Directives {
  const inline = inlineHashes(built.html.map((page) => (typeof page === 'string' ? inlineTexts(page) : page)))
  const tags = Boolean(site.analytics.gtmId || site.analytics.gaId)
  const formService = site.contactForm.delivery === 'endpoint' ? [origin(site.contactForm.endpoint)] : []
  const dataImages = built.css.some((css) => /url\(\s*['"]?data:/i.test(css))
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inline.scripts, ...(tags ? GOOGLE_TAGS.script : [])],
    'style-src': ["'self'", origin(site.fonts.stylesheet), ...inline.styles],
    'font-src': ["'self'", ...site.fonts.preconnect.map(origin).filter((o) => o !== origin(site.fonts.stylesheet))],
    'img-src': ["'self'", ...(dataImages ? ['data:'] : []), ...(tags ? GOOGLE_TAGS.img : [])],
    'connect-src': ["'self'", ...formService, ...(tags ? GOOGLE_TAGS.connect : [])],
    'frame-src': [origin(site.map.embedUrl), ...(site.analytics.gtmId ? GOOGLE_TAGS.script : [])],
    'form-action': ["'self'", ...formService],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': ["'none'"],
  }
}

/** The policy as a header value; `meta` leaves out what a <meta> element cannot carry. */
export function serializePolicy(directives: Directives, { meta = false } = {}): string {
  return Object.entries(directives)
    .filter(([name]) => !(meta && name === 'frame-ancestors'))
    .map(([name, sources]) => [name, ...new Set(sources)].join(' '))
    .join('; ')
}

/** Every header a response of the site carries, the policy included. */
export function securityHeaders(directives: Directives): Record<string, string> {
  return {
    'Content-Security-Policy': serializePolicy(directives),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  }
}

/** Scripts a browser executes (not JSON or other data blocks, which no policy governs). */
const EXECUTABLE = /^(|module|(text|application)\/(java|ecma)script)$/i

/** The inline scripts a browser executes and the inline styles of one page, as written. */
export interface InlineTexts { scripts: string[]; styles: string[] }

export function inlineTexts(html: string): InlineTexts {
  const scripts: string[] = []
  const styles: string[] = []
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes!)?.[1] ?? ''
    if (EXECUTABLE.test(type)) scripts.push(text!)
  }
  for (const [, text] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) styles.push(text!)
  return { scripts, styles }
}

/**
 * The hashes of every distinct inline script and style element in the pages. The browser hashes
 * the exact text between the tags, which is what the build wrote.
 */
export function inlineHashes(pages: InlineTexts[]): { scripts: string[]; styles: string[] } {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const distinct = (texts: string[]) => [...new Set(texts)].map(hash).sort()
  return { scripts: distinct(pages.flatMap((p) => p.scripts)), styles: distinct(pages.flatMap((p) => p.styles)) }
}

const origin = (url: string) => new URL(url).origin
