/** Content types with their charset, and how long a browser or CDN may keep each file. */
import { lookup } from 'mrmime'
import { IMMUTABLE, REVALIDATE } from '../deploy/static-hosts.ts'

const TEXT = /^(text\/|application\/(javascript|json|xml|manifest\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/

/** 'contact/index.html' -> 'text/html; charset=utf-8'; 'favicon.ico' -> 'image/x-icon' */
export function contentType(file: string): string {
  const type = lookup(file) ?? 'application/octet-stream'
  return TEXT.test(type) ? `${type}; charset=utf-8` : type
}

/** Text formats shrink well; images and fonts are compressed already. */
export const isCompressible = (type: string): boolean => TEXT.test(type)

/**
 * esbuild names bundles assets/<name>.<hash>.<ext> (chunks under assets/chunks/): a new build
 * gives changed files a new name, so these can be kept for a year without revalidation.
 */
const HASHED_ASSET = /^assets\/(.+\/)?[^/]+\.[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/

/** 'assets/site.5TKQ2ZLM.css' -> one year, immutable; pages and everything else -> revalidate. */
export function cachePolicy(file: string): string {
  return HASHED_ASSET.test(file) ? IMMUTABLE : REVALIDATE
}
