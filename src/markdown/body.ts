/**
 * Markdown bodies: the syntax tree of one Doc, and the few facts about it that checks across
 * files need (its links, its images, those without alt text). Pure. Parsing is the costliest step of
 * a build, so the facts are small plain data that the build cache keeps by content hash.
 */
import type { Image, ImageReference, Nodes, Root, Text } from 'mdast'
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote'
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough'
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table'
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item'
import { gfmFootnote } from 'micromark-extension-gfm-footnote'
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough'
import { gfmTable } from 'micromark-extension-gfm-table'
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified, type Processor } from 'unified'
import { problem } from '../errors.ts'
import { unsafeMarkup } from './sanitize.ts'
import type { BodyFacts, Diagnostic, Doc } from '../types.ts'
import { eachNode, someNode } from './walk.ts'

const gfm = unified().use(remarkParse).use(remarkGfm)
const gfmWithoutAutolinks = unified().use(remarkParse).use(gfmExceptAutolinks)
const commonMark = unified().use(remarkParse)

/** remark-gfm less its autolink literals, which look at every character: a third of the parsing time. */
function gfmExceptAutolinks(this: Processor) {
  const data = this.data()
  ;(data.micromarkExtensions ??= []).push(gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem())
  ;(data.fromMarkdownExtensions ??= []).push(gfmFootnoteFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown())
}

/** What GFM turns into a link in text: an address after www. or a scheme's //, an e-mail address. */
const MAY_AUTOLINK = /www\.|:\/\/|@/i
/** What GFM's other extensions start from: a table's pipe, a strikethrough's tilde, a footnote's [^, a task's [ ] or [x]. */
const MAY_EXTEND = /[|~]|\[\^|\[[ \txX]\]/

/**
 * The body's syntax tree (GitHub-flavoured Markdown); positions are lines of the whole file, so
 * messages name the right line. Blank lines stand in for the front matter: cheaper than shifting
 * every node's position after. GFM's extensions cost a parser a fifth of its time even where they
 * find nothing, so a body is parsed with those it may use: most use none, and most have no address
 * in their text, only in their links' destinations. Either way the tree is the same.
 */
export function parseBody(doc: Pick<Doc, 'markdown' | 'bodyLine'>): Root {
  const text = '\n'.repeat(doc.bodyLine - 1) + doc.markdown
  const tree = (MAY_EXTEND.test(doc.markdown) ? gfmWithoutAutolinks : commonMark).parse(text)
  const mayAutolink = someNode(tree, (node) => node.type === 'text' && MAY_AUTOLINK.test((node as Text).value))
  return mayAutolink ? gfm.parse(text) : tree
}

export function factsOf(doc: Pick<Doc, 'id'>, tree: Root): BodyFacts {
  const links: BodyFacts['links'] = []
  const images: BodyFacts['images'] = []
  const diagnostics: Diagnostic[] = []
  const definitions = new Map<string, string>()
  const references: ImageReference[] = []
  eachNode(tree, (n) => {
    const node = n as Nodes
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
