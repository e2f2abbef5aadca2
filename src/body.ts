/**
 * Markdown bodies: the syntax tree of one Doc, and the few facts about it that checks across
 * files need (its links, its images, those without alt text). Pure. Parsing is the costliest step of
 * a build, so the facts are small plain data that the build cache keeps by content hash.
 */
import type { Image, ImageReference, Root } from 'mdast'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { visit } from 'unist-util-visit'
import { problem } from './errors.ts'
import { unsafeMarkup } from './sanitize.ts'
import type { BodyFacts, Diagnostic, Doc } from './types.ts'

const commonMark = unified().use(remarkParse)
const gfm = unified().use(remarkParse).use(remarkGfm)

/**
 * What every GFM construct needs in its text: an autolink (www., ://, @ of an e-mail address), a
 * strikethrough (~), a table (|), a footnote ([^), a task list item ([ ] or [x]). A body without
 * any of them parses to the same tree without the GFM extensions, a third faster (autolinks alone
 * look at every character).
 */
const MAY_USE_GFM = /www\.|:\/\/|@|~|\||\[\^|\[[ x]\]/i

/**
 * The body's syntax tree; positions are lines of the whole file, so messages name the right line.
 * Blank lines stand in for the front matter: cheaper than shifting every node's position after.
 */
export function parseBody(doc: Pick<Doc, 'markdown' | 'bodyLine'>): Root {
  const parser = MAY_USE_GFM.test(doc.markdown) ? gfm : commonMark
  return parser.parse('\n'.repeat(doc.bodyLine - 1) + doc.markdown)
}

export function factsOf(doc: Pick<Doc, 'id'>, tree: Root): BodyFacts {
  const links: BodyFacts['links'] = []
  const images: BodyFacts['images'] = []
  const diagnostics: Diagnostic[] = []
  const definitions = new Map<string, string>()
  const references: ImageReference[] = []
  visit(tree, (node) => {
    const at = { line: node.position?.start.line, column: node.position?.start.column }
    if (node.type === 'link' || node.type === 'definition') {
      links.push({ url: node.url, ...at })
      if (node.type === 'definition') definitions.set(node.identifier, node.url)
    } else if (node.type === 'image') {
      images.push({ url: node.url, ...at })
      if (!(node as Image).alt?.trim()) diagnostics.push(problem('MissingAltText', [(node as Image).url], { file: doc.id, ...at }))
    } else if (node.type === 'imageReference') {
      references.push(node)
    }
  })
  // ![alt][ref] takes its URL from a definition, which may come after it.
  for (const node of references) {
    const url = definitions.get(node.identifier)
    const at = { line: node.position?.start.line, column: node.position?.start.column }
    if (url !== undefined) images.push({ url, ...at })
    if (!node.alt?.trim()) diagnostics.push(problem('MissingAltText', [url ?? `[${node.label ?? node.identifier}]`], { file: doc.id, ...at }))
  }
  diagnostics.push(...unsafeMarkup(tree, doc.id))
  return { links, images, diagnostics }
}

/** Root-relative paths a body links to, without query or fragment: '/services/ear/#risks' -> '/services/ear/' */
export function internalLinks(facts: BodyFacts): string[] {
  const found = new Set<string>()
  for (const { url } of facts.links) if (url.startsWith('/') && !url.startsWith('//')) found.add(url.replace(/[?#].*$/, ''))
  return [...found]
}
