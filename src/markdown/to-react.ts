/** Markdown syntax trees -> React elements, through remark-rehype and rehype-react. Pure. */
import type { Element, Root as HastRoot } from 'hast'
import type { Heading, Root, RootContent, Text } from 'mdast'
import type { ReactNode } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import rehypeReact from 'rehype-react'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { VFile } from 'vfile'
import { imageUrl, imgAttributes, isRelative, type ImageSet } from '../assets/picture.ts'
import { rehypeRawWhenPresent, rehypeSafe } from './sanitize.ts'
import { eachNode, isElement } from './walk.ts'

/** Images in the text column are at most its width (about 42rem). */
const CONTENT_SIZES = '(min-width: 48rem) 42rem, 100vw'

/** Heading ids, so sections can be linked to: "Risks and complications" -> "risks-and-complications". */
function rehypeHeadingIds() {
  return (tree: HastRoot) => {
    const seen = new Map<string, number>()
    eachNode(tree, (node) => {
      if (!isElement(node) || !/^h[2-4]$/.test(node.tagName) || node.properties.id) return
      const base = slugify(textOf(node)) || 'section'
      const n = seen.get(base) ?? 0
      seen.set(base, n + 1)
      node.properties.id = n ? `${base}-${n}` : base
    })
  }
}

/**
 * Images in Markdown load lazily (the hero image is the template's, never the body's); those the
 * image pipeline processed become <picture> elements with modern formats, sizes and a placeholder,
 * and those it shows as they are (SVG, GIF) get their intrinsic width and height. A path relative
 * to the Markdown file becomes the image's URL: a browser would resolve it against the page's URL.
 */
function rehypeImages() {
  return (tree: HastRoot, file: VFile) => {
    const { images = {}, docId = '' } = file.data as { images?: Record<string, ImageSet>; docId?: string }
    eachNode(tree, (node, index, parent) => {
      if (!isElement(node) || node.tagName !== 'img') return
      Object.assign(node.properties, { loading: 'lazy', decoding: 'async' })
      const src = String(node.properties.src ?? '')
      const url = imageUrl(src, docId)
      const set = url === undefined ? undefined : images[url]
      if (set && isRelative(src)) node.properties.src = encodeURI(set.fallback.src)
      if (set && set.sources.length === 0) Object.assign(node.properties, { width: set.width, height: set.height })
      if (!set || set.sources.length === 0 || !parent || index === undefined) return
      Object.assign(node.properties, imgAttributes(set, CONTENT_SIZES), { className: [set.placeholderClass] })
      ;(parent as Element).children[index] = {
        type: 'element', tagName: 'picture', properties: {},
        children: [...set.sources.map((s): Element => ({ type: 'element', tagName: 'source', properties: { type: s.type, srcSet: s.srcset, sizes: CONTENT_SIZES }, children: [] })), node],
      }
    })
  }
}

// Raw HTML is parsed, then everything is cut down to the allow-list of sanitize.ts.
const toReact = unified()
  .use(remarkRehype, { allowDangerousHtml: true, clobberPrefix: '' })
  .use(rehypeRawWhenPresent)
  .use(rehypeSafe)
  .use(rehypeHeadingIds)
  .use(rehypeImages)
  .use(rehypeReact, { Fragment, jsx, jsxs })

/** Renders Markdown nodes (a whole body or one section of it) of the file `docId` as React elements. */
export function renderMarkdown(nodes: RootContent[], images: Record<string, ImageSet> = {}, docId = ''): ReactNode {
  const root: Root = { type: 'root', children: nodes }
  const file = new VFile({ data: { images, docId } })
  return toReact.stringify(toReact.runSync(root, file) as HastRoot, file) as ReactNode
}

export interface Section {
  /** Anchor id. Example: 'recovery-and-aftercare' */
  id: string
  title: string
  nodes: RootContent[]
}

/** Splits a body at its `##` headings; text before the first heading is returned as `lead`. */
export function splitSections(body: Root): { lead: RootContent[]; sections: Section[] } {
  const lead: RootContent[] = []
  const sections: Section[] = []
  for (const node of body.children) {
    if (node.type === 'heading' && node.depth === 2) {
      const title = plainText(node)
      sections.push({ id: slugify(title) || `section-${sections.length + 1}`, title, nodes: [] })
    } else {
      ;(sections.at(-1)?.nodes ?? lead).push(node)
    }
  }
  return { lead, sections }
}

export interface Question { question: string; answer: RootContent[] }

/** A section whose `###` headings are all questions ("…?" or "…？") is a list of FAQs. */
export function questionsOf(section: Section): Question[] | undefined {
  const items: Question[] = []
  for (const node of section.nodes) {
    if (node.type === 'heading' && node.depth === 3) items.push({ question: plainText(node), answer: [] })
    else if (items.length === 0) return undefined
    else items.at(-1)!.answer.push(node)
  }
  return items.length > 0 && items.every((q) => /[?？]$/.test(q.question)) ? items : undefined
}

export function plainText(node: Heading | RootContent): string {
  let text = ''
  eachNode(node, (n) => { if (n.type === 'text' || n.type === 'inlineCode') text += (n as Text).value })
  return text.trim()
}

function textOf(node: Element): string {
  let text = ''
  eachNode(node, (n) => { if (n.type === 'text') text += (n as Text).value })
  return text
}

/** Lower-case words joined by hyphens; Chinese characters are kept as they are. */
export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{Letter}\p{Number}]+/gu, '-').replace(/^-+|-+$/g, '')
}
