/**
 * A page's key in the build cache, which names what it shows besides what it reads, and whether
 * a cached page still holds: every read of the rest of the site (src/page/reads.ts) answered as
 * it was when the page was rendered.
 */
import type { Read } from '../page/reads.ts'
import { hashOf } from '../util/memo.ts'
import type { Route } from '../types.ts'
import type { CachedPage } from './cache.ts'

/**
 * `shared`: what every page of the route's template shows; `docHash`: the hash of the Doc it
 * renders. A hash of the three: written out, a key ran to 500 characters, a tenth of build.bin.
 */
export function pageKey(route: Route, shared: string, docHash: string): string {
  const last = pageKeys.get(route)
  if (last?.shared === shared && last.docHash === docHash) return last.key
  const key = hashOf(shared, docHash, JSON.stringify(route))
  pageKeys.set(route, { shared, docHash, key })
  return key
}
const pageKeys = new WeakMap<Route, { shared: string; docHash: string; key: string }>()

/** Checked once per answerer: the dev server's builds mostly share one. */
export function stillValid(page: CachedPage, answer: (read: Read) => string): boolean {
  if (validWith.get(page) === answer) return true
  const valid = page.reads.every(([read, answered]) => answer(read) === answered)
  if (valid) validWith.set(page, answer)
  return valid
}
const validWith = new WeakMap<CachedPage, (read: Read) => string>()
