/** Built HTML read back as a tree (htmlparser2), with the line and column of every element, and line and column of any text. Pure. */
import { DomUtils, parseDocument } from 'htmlparser2'

export type HtmlDocument = ReturnType<typeof parseDocument>
export type HtmlElement = ReturnType<typeof DomUtils.findAll>[number]

export interface HtmlPage {
  /** Path relative to the output folder. Example: 'cn/contact/index.html' */
  path: string
  html: string
  doc: HtmlDocument
  /** Line and column (1-based) of a character offset, or of an element's start. */
  at: (where: number | HtmlElement) => { line: number; column: number }
}

export function readHtml(path: string, html: string): HtmlPage {
  const doc = parseDocument(html, { withStartIndices: true, withEndIndices: true })
  const position = lineColumn(html)
  const at = (where: number | HtmlElement) => position(typeof where === 'number' ? where : where.startIndex ?? 0)
  return { path, html, doc, at }
}

/** Line and column (1-based) of a character offset in `text`. Example: lineColumn('a\nbc')(3) -> { line: 2, column: 2 } */
export function lineColumn(text: string): (offset: number) => { line: number; column: number } {
  const lineStarts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = lineStarts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (lineStarts[mid]! <= offset) low = mid
      else high = mid - 1
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 }
  }
}

/** Every element under `root` that passes `test`, in document order. */
export function select(root: HtmlDocument | HtmlElement, test: (el: HtmlElement) => boolean): HtmlElement[] {
  return DomUtils.findAll(test, root.children)
}

export const byTag = (root: HtmlDocument | HtmlElement, ...names: string[]) => select(root, (el) => names.includes(el.name))

/** The text inside an element, as a reader sees it. */
export const textOf = (el: HtmlElement): string => DomUtils.textContent(el).replace(/\s+/g, ' ').trim()

/** The nearest `lang` attribute of an element or its ancestors. */
export function langOf(el: HtmlElement): string | undefined {
  for (let node: HtmlElement | null = el; node; node = node.parent && 'name' in node.parent ? node.parent as HtmlElement : null) {
    if (node.attribs.lang) return node.attribs.lang
  }
  return undefined
}
