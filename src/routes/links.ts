/**
 * Internal links in Markdown must lead to a page the build emits or to a file it publishes, and
 * images to a file whose size the build knows, so the <img> can reserve its box: under static/
 * (written from the site root) or beside the Markdown under content/ (written relative to it).
 * An image under content/ must not be published where a static file or a page is. Pure.
 */
import { problem } from '../errors.ts'
import { IMAGE_FILE, imageUrl, isRelative } from '../assets/picture.ts'
import type { BodyFacts, Diagnostic, Doc, RouteTable } from '../types.ts'

const ORIGIN = 'http://site.invalid'

/**
 * `alsoKnown`: URLs of pages whose file failed to parse; their errors are reported already.
 * `contentImages`: images under content/, relative to it (Project.contentImages).
 */
export function checkLinks(docs: Doc[], facts: ReadonlyMap<string, BodyFacts>, table: RouteTable, staticFiles: string[], alsoKnown: string[] = [], contentImages: string[] = []): Diagnostic[] {
  const check = linkChecker(table, staticFiles, alsoKnown, contentImages)
  return docs.flatMap((doc) => check(doc, facts.get(doc.id)))
}

/**
 * The checks of one site's links, body by body; a body's findings are kept with its facts, so a
 * rebuild against the same routes and files checks only the bodies that changed.
 */
export function linkChecker(table: RouteTable, staticFiles: string[], alsoKnown: string[] = [], contentImages: string[] = []): (doc: Doc, facts: BodyFacts | undefined) => Diagnostic[] {
  const beside = new Set(contentImages.map((f) => `/${f}`))
  const published = new Set([...staticFiles.map((f) => `/${f}`), ...beside])
  const known = new Set([...published, ...alsoKnown])
  /** What an image should be and is not, or undefined when it is a published file or on another site. */
  const missing = (src: string, target: string | undefined): string | undefined => {
    if (!isRelative(src)) return target !== undefined && !published.has(target) ? 'a file under static/' : undefined
    // A relative path names a file beside the Markdown, never a static/ file of the same URL.
    if (target === undefined) return 'a file beside the page: it leads out of content/'
    if (!IMAGE_FILE.test(target)) return 'a JPEG, PNG, WebP, GIF or SVG file'
    return beside.has(target) ? undefined : `a file beside the page: content${target} does not exist`
  }
  const urlOf = new Map(table.routes.map((r) => [r.docId, r.url]))
  const checked = new WeakMap<BodyFacts, Diagnostic[]>()
  const check = (doc: Doc, facts: BodyFacts): Diagnostic[] => {
    const found: Diagnostic[] = []
    const from = urlOf.get(doc.id) ?? '/'
    for (const link of facts.links) {
      const target = internalPath(link.url, from)
      if (target === undefined || table.byUrl.has(target) || known.has(target)) continue
      found.push(problem('BrokenLink', [link.url], { file: doc.id, line: link.line, column: link.column }))
    }
    for (const image of facts.images) {
      const at = { file: doc.id, line: image.line, column: image.column }
      const target = imageUrl(image.url, doc.id)
      const why = missing(image.url, target)
      if (why) {
        found.push(problem('MissingImage', [image.url, why], at))
        continue
      }
      // data: and other schemes are the sanitiser's (UnsafeMarkup); the rest cannot be sized.
      const unsized = target === undefined ? (/^(https?:)?\/\//i.test(image.url) ? 'is on another site, not under static/' : undefined)
        : !IMAGE_FILE.test(target) ? 'is not a JPEG, PNG, WebP, GIF or SVG file'
        : undefined
      if (unsized) found.push(problem('UnsizedImage', [image.url, unsized], at, 'warning'))
    }
    return found
  }
  return (doc, facts) => {
    if (!facts) return []
    let found = checked.get(facts)
    if (!found) checked.set(facts, (found = check(doc, facts)))
    return found
  }
}

/** Folders the build writes its own files into (sharing images; bundles and encoded images). */
const GENERATED = ['assets', 'og']

/**
 * An image under content/ is published at its path there (content/en/x.png -> en/x.png in the
 * output): a static file, a page or a folder of either at that path, or a folder of the build's
 * own, would be overwritten or could not be written. Each such image is a DuplicateUrl error
 * naming both files.
 */
export function contentImageClashes(contentImages: string[], staticFiles: string[], table: RouteTable): Diagnostic[] {
  if (contentImages.length === 0) return []
  const occupant = occupantOf(new Map([...staticFiles.map((f) => [f, `static/${f}`] as const), ...table.routes.map((r) => [r.output, r.docId ?? '(generated)'] as const)]))
  return contentImages.flatMap((image) => {
    const other = occupant(image) ?? (GENERATED.includes(image.split('/')[0]!) ? '(generated)' : undefined)
    return other ? [problem('DuplicateUrl', [`/${image}`, `content/${image} and ${other}`], { file: `content/${image}` })] : []
  })
}

/**
 * What, of `files` (output path -> what needs it), leaves no room for a file at a path: a file at
 * that path, one below it (the path is its folder), or one at a folder above it.
 */
export function occupantOf(files: Map<string, string>): (path: string) => string | undefined {
  const folders = new Map<string, string>()
  for (const [path, source] of files) for (const folder of foldersOf(path)) if (!folders.has(folder)) folders.set(folder, source)
  return (path) => files.get(path) ?? folders.get(path) ?? foldersOf(path).map((f) => files.get(f)).find(Boolean)
}

/** 'cn/blog/x.png' -> ['cn', 'cn/blog'] */
const foldersOf = (path: string) => path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))

/**
 * The site path a link points to, or undefined for links that leave the site or stay on the page.
 *   '/services/ear/#risks' -> '/services/ear/'    'mailto:a@b.sg' -> undefined    '#faq' -> undefined
 */
function internalPath(href: string, from: string): string | undefined {
  if (href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined
  // Most links are plain site paths ('/services/ear/#risks'): no need for a URL parser.
  if (/^\/[\w\-/]*(?:[?#].*)?$/.test(href)) return href.replace(/[?#].*$/, '')
  const resolved = new URL(href, ORIGIN + from)
  return decodeURI(resolved.pathname)
}

/** Root-relative paths a body links to, without query or fragment: '/services/ear/#risks' -> '/services/ear/' */
export function internalLinks(facts: BodyFacts): string[] {
  const found = new Set<string>()
  for (const { url } of facts.links) if (url.startsWith('/') && !url.startsWith('//')) found.add(url.replace(/[?#].*$/, ''))
  return [...found]
}
