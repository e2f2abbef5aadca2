/**
 * Markdown bodies: the syntax tree of one Doc, and the few facts about it that checks across
 * files need (its links, its images without alt text). Pure. Parsing is the costliest step of
 * a build, so the facts are small plain data that the build cache keeps by content hash.
 */
import type { Image, Root } from 'mdast'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { visit } from 'unist-util-visit'
import { problem } from './errors.ts'
import { unsafeMarkup } from './sanitize.ts'
import type { BodyFacts, Diagnostic, Doc } from './types.ts'

const markdown = unified().use(remarkParse).use(remarkGfm)

/** The body's syntax tree; positions are lines of the whole file, so messages name the right line. */
export function parseBody(doc: Pick<Doc, 'markdown' | 'bodyLine'>): Root {
  const tree = markdown.parse(doc.markdown)
  const by = doc.bodyLine - 1
  visit(tree, (node) => {
    if (node.position) {
      node.position.start.line += by
      node.position.end.line += by
    }
  })
  return tree
}

export function factsOf(doc: Pick<Doc, 'id'>, tree: Root): BodyFacts {
  const links: BodyFacts['links'] = []
  const diagnostics: Diagnostic[] = []
  visit(tree, (node) => {
    if (node.type === 'link' || node.type === 'definition') {
      links.push({ url: node.url, line: node.position?.start.line, column: node.position?.start.column })
    } else if (node.type === 'image' && !(node as Image).alt?.trim()) {
      diagnostics.push(problem('MissingAltText', [(node as Image).url], { file: doc.id, line: node.position?.start.line, column: node.position?.start.column }))
    }
  })
  diagnostics.push(...unsafeMarkup(tree, doc.id))
  return { links, diagnostics }
}

/** Root-relative paths a body links to, without query or fragment: '/services/ear/#risks' -> '/services/ear/' */
export function internalLinks(facts: BodyFacts): string[] {
  const found = new Set<string>()
  for (const { url } of facts.links) if (url.startsWith('/') && !url.startsWith('//')) found.add(url.replace(/[?#].*$/, ''))
  return [...found]
}
