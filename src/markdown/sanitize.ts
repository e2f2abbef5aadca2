/**
 * Untrusted Markdown: the raw HTML an editor writes is parsed (rehype-raw) and cut down to an
 * allow-list (rehype-sanitize), and links keep only safe protocols, so no script, event handler,
 * frame, form or javascript:/data: URL reaches a page. `unsafeMarkup` names each thing that will
 * be removed, with its line, so the editor learns why part of a page is missing. Pure.
 */
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from 'hast'
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize, { defaultSchema, type Options as Schema } from 'rehype-sanitize'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { problem } from '../errors.ts'
import type { Diagnostic } from '../types.ts'
import { eachNode, isElement, someNode } from './walk.ts'

/** GitHub's allow-list, with <abbr> and tel: links, and with styles and templates removed along with their content. */
export const markdownSchema: Schema = {
  ...defaultSchema,
  tagNames: [...defaultSchema.tagNames!, 'abbr'],
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto', 'tel'] },
  strip: ['script', 'style', 'template'],
}

/** The prefix given to ids and names from Markdown, so they cannot clobber the page's own. */
const PREFIX = markdownSchema.clobberPrefix!

const parseRaw = rehypeRaw()
const clean = rehypeSanitize(markdownSchema)
/** Markdown to HTML as a browser would parse it, raw HTML included: what the allow-list is applied to. */
const unsanitised = unified().use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw)

/** Raw HTML is parsed only when a body has some, since parsing re-reads the whole tree. */
export function rehypeRawWhenPresent() {
  return (tree: HastRoot) => (hasRaw(tree) ? parseRaw(tree, undefined as never) : tree)
}

/** The allow-list, then in-page links pointed at the prefixed ids they target. */
export function rehypeSafe() {
  return (tree: HastRoot) => {
    const safe = clean(tree)
    linkPrefixedTargets(safe)
    return safe
  }
}

/** `#fn-1` -> `#user-content-fn-1` when only the prefixed id exists (footnotes, raw HTML ids). */
function linkPrefixedTargets(tree: HastRoot): void {
  const ids = new Set<string>()
  const links: Element[] = []
  eachNode(tree, (node) => {
    if (!isElement(node)) return
    if (typeof node.properties.id === 'string') ids.add(node.properties.id)
    if (node.tagName === 'a' && typeof node.properties.href === 'string' && node.properties.href.startsWith('#')) links.push(node)
  })
  for (const node of links) {
    const href = node.properties.href as string
    const id = decodeURIComponent(href.slice(1))
    if (!ids.has(id) && ids.has(PREFIX + id)) node.properties.href = `#${PREFIX}${id}`
  }
}

/** One warning for each element, attribute or URL of a body that the allow-list removes. */
export function unsafeMarkup(body: MdastRoot, file: string): Diagnostic[] {
  if (!mayBeUnsafe(body)) return []
  const tree = unsanitised.runSync(body) as HastRoot
  const found: Diagnostic[] = []
  const report = (what: string, node: Element) => found.push(problem('UnsafeMarkup', [what], { file, line: node.position?.start.line, column: node.position?.start.column }, 'warning'))
  const inspect = (node: HastRoot | HastContent | ElementContent) => {
    if (node.type === 'element') {
      const kept = sanitizeAlone(node)
      if (!kept) {
        report(`The <${node.tagName}> element was removed${markdownSchema.strip!.includes(node.tagName) ? ' with its content' : ''}.`, node)
        if (markdownSchema.strip!.includes(node.tagName)) return
      } else {
        for (const key of Object.keys(node.properties).filter((k) => !(k in kept.properties))) {
          const value = String(node.properties[key])
          const scheme = isUrl(key) ? schemeOf(value) : undefined
          report(scheme
            ? `The ${scheme}: URL in the ${attributeName(key)} of <${node.tagName}> was removed: only ${list(markdownSchema.protocols![key]!)} ${key === 'href' ? 'links' : 'sources'} are kept.`
            : `The ${attributeName(key)} attribute of <${node.tagName}> was removed.`, node)
        }
      }
    }
    if ('children' in node) for (const child of node.children) inspect(child)
  }
  inspect(tree)
  return found
}

/** Whether a body has raw HTML or a URL with a scheme, the only things the allow-list can remove. */
function mayBeUnsafe(body: MdastRoot): boolean {
  return someNode(body, (n) => {
    const node = n as MdastNodes
    if (node.type === 'html') return !/^\s*<!--[\s\S]*-->\s*$/.test(node.value)
    return (node.type === 'link' || node.type === 'image' || node.type === 'definition') && !/^https?$/.test(schemeOf(node.url) ?? 'http')
  })
}

/** The element as the allow-list keeps it on its own (its table, where it needs one), or undefined. */
function sanitizeAlone(node: Element): Element | undefined {
  const alone: Element = { type: 'element', tagName: node.tagName, properties: node.properties, children: [] }
  const needsTable = markdownSchema.ancestors?.[node.tagName]?.includes('table')
  const tree: HastRoot = { type: 'root', children: [needsTable ? { type: 'element', tagName: 'table', properties: {}, children: [alone] } : alone] }
  const kept = clean(tree).children[0]
  const element = needsTable && kept?.type === 'element' ? kept.children[0] : kept
  return element?.type === 'element' && element.tagName === node.tagName ? element : undefined
}

function hasRaw(tree: HastRoot): boolean {
  return someNode(tree, (node) => node.type === 'raw')
}

const isUrl = (key: string) => key in (markdownSchema.protocols ?? {})
/** 'jav\tascript:alert(1)' -> 'javascript' (browsers ignore such whitespace); undefined for relative URLs. */
function schemeOf(url: string): string | undefined {
  return /^([a-z][\w+.-]*):/i.exec(url.replace(/[\s\u0000-\u001f]/g, ''))?.[1]?.toLowerCase()
}

const list = (items: string[]) => items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join('')

/** hast property names as an editor wrote them: onError -> onerror, className -> class. */
function attributeName(key: string): string {
  if (key === 'className') return 'class'
  if (key === 'htmlFor') return 'for'
  if (/^(data|aria)[A-Z]/.test(key)) return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
  return key.toLowerCase()
}
