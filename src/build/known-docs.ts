/**
 * What the build cache knows of each content file (cache.ts): its Doc, re-used while neither
 * the file nor the site configuration changed, or given the file's new body when only the body
 * did; and its body's facts, by the Doc's hash. Also the identities derived from them once per
 * object, so that the steps after them see that nothing changed.
 */
import { hashOf, oncePer } from '../util/memo.ts'
import { bodyAfter, fileHash, headOf, parseDoc, splitFile, type ParsedDoc } from '../content/parse.ts'
import { internalLinks } from '../routes/links.ts'
import { withBody, type BuildCache, type KnownDoc } from './cache.ts'
import type { BodyFacts, BodySource, Doc, SiteConfig, SourceFile } from '../types.ts'

/** A source's identity for the caches: its text, and why it could not be read (its text is then ''). */
export const textHash = oncePer((file: SourceFile) => hashOf(file.text, file.problem?.message ?? ''))
/** The key of a body's facts in the cache. */
export const keyOf = oncePer((doc: Doc) => `${doc.id} ${doc.hash}`)
export const withoutBody = oncePer((doc: Doc): Doc => ({ ...doc, markdown: '', hash: '' }))
/** The site's own pages a body links to. */
export const linksOf = oncePer((facts: BodyFacts) => internalLinks(facts))
export const linkText = oncePer((links: string[]) => links.join(' '))

/** Whether the cache holds the facts of a content file's body, known before its front matter is read. */
export function factsCached(file: SourceFile, cache: BuildCache): boolean {
  const known = cache.docs.get(file.path)
  return known?.text === textHash(file) && known.result.doc !== undefined && cache.facts.has(keyOf(known.result.doc))
}

/**
 * A content file's Doc, from the cache when neither the file nor the site configuration changed,
 * or with its new body when only the body did (its front matter, so its data, is the same).
 */
export function parseKnown(file: SourceFile, site: SiteConfig, siteHash: string, cache: BuildCache, next: BuildCache): ParsedDoc {
  const text = textHash(file)
  const known = cache.docs.get(file.path)
  const entry = known?.site !== siteHash ? parsed(file, site, text, siteHash)
    : known.text === text ? withBody(file, known) ?? parsed(file, site, text, siteHash)
      : bodyEdited(file, known) ?? parsed(file, site, text, siteHash)
  next.docs.set(file.path, entry)
  return entry.result
}

function parsed(file: SourceFile, site: SiteConfig, text: string, siteHash: string): KnownDoc {
  const result = parseDoc(file, site)
  return { text, site: siteHash, result, ...(result.doc ? { head: headOf(file) } : {}) }
}

/** The cached Doc with the file's new body, when its front matter block is the one cached. */
export function bodyEdited(file: SourceFile, known: KnownDoc): KnownDoc | undefined {
  const doc = known.result.doc && known.head !== undefined ? withNewBody(known.result.doc, file, known.head) : undefined
  return doc && { ...known, text: textHash(file), result: { ...known.result, doc } }
}

/** `doc` with the body `file` holds, when the file opens with `head`, the front matter block `doc` came from. */
export function withNewBody(doc: Doc, file: SourceFile, head: string): Doc | undefined {
  const body = bodyAfter(file, head)
  return body && { ...doc, ...body, hash: fileHash(file) }
}

/** A content file's body: split after its front matter block as the cache knows it, when that is unchanged. */
export function bodyOf(file: SourceFile, cache: BuildCache): BodySource {
  const head = cache.docs.get(file.path)?.head
  return (head !== undefined && bodyAfter(file, head)) || splitFile(file).body
}
