/**
 * The axe-core rules that depend only on a page's own markup, judged from the built HTML without a
 * browser: every page in a fraction of a millisecond. Findings carry axe's rule ids and help texts
 * (read from the installed axe-core, so they follow its upgrades), and point at the Markdown line
 * an offending element came from when it came from the page's Markdown. Pure.
 *
 * What is hidden from assistive technology (aria-hidden, the hidden attribute, closed <details>,
 * <template>, <noscript>) is skipped, as axe skips it. What needs a rendered page (colour
 * contrast, sizes, what scripts change) stays with the browser check.
 */
import { createRequire } from 'node:module'
import { DomUtils, parseDocument } from 'htmlparser2'
import type { Diagnostic } from '../types.ts'
import { lineColumn, type HtmlElement } from './html.ts'
import { escapeRegExp } from '../util/regexp.ts'

/** The Markdown file a page was rendered from. Example: { file: 'content/en/blog/x.md', text: '---\ntitle: …' } */
export interface PageSource { file: string; text: string }

type HtmlNode = ReturnType<typeof parseDocument>['children'][number]

/**
 * What the rules take from the installed axe-core, loaded when a page is first judged: a check
 * that finds every page unchanged does not pay axe-core's load (about 0.1 s).
 */
function loadAxeFacts() {
  // Required rather than imported: Node reads a CommonJS module that ESM imports a second time, to
  // find its exports, which for axe-core's 0.5 MB took two thirds of its 0.16 s load.
  const axe = createRequire(import.meta.url)('axe-core') as typeof import('axe-core')
  const help = new Map(axe.getRules().map((rule) => [rule.ruleId, rule.help]))
  /** axe deprecated duplicate-id and duplicate-id-active in 4.7 (off by default); ids used twice still break in-page links. */
  const duplicateId = help.has('duplicate-id') ? 'duplicate-id' : undefined
  const duplicateIdActive = help.has('duplicate-id-active') ? 'duplicate-id-active' : undefined
  return {
    help,
    helpUrl: `https://dequeuniversity.com/rules/axe/${axe.version.split('.').slice(0, 2).join('.')}`,
    /** axe's list of language subtags, and its test of a role; its public API has no types for them. */
    validLangs: new Set((axe as unknown as { utils: { validLangs(): string[] } }).utils.validLangs()),
    isValidRole: (axe as unknown as { commons: { aria: { isValidRole(role: string): boolean } } }).commons.aria.isValidRole,
    duplicateId,
    duplicateIdActive,
    staticRules: [
      'image-alt', 'link-name', 'empty-heading', 'heading-order', 'duplicate-id-aria', ...[duplicateId, duplicateIdActive].filter((id) => id !== undefined),
      'valid-lang', 'html-has-lang', 'html-lang-valid', 'th-has-data-cells', 'td-headers-attr', 'td-has-header',
      'list', 'listitem', 'frame-title', 'object-alt',
    ] as readonly string[],
  }
}
let facts: ReturnType<typeof loadAxeFacts> | undefined
const axeFacts = () => (facts ??= loadAxeFacts())

/** Axe-core rule ids this module judges without a browser. */
export const staticRules = (): readonly string[] => axeFacts().staticRules

/** How to find an element's origin in its Markdown file. */
type Origin =
  | { kind: 'image'; key: string }
  | { kind: 'link'; key: string }
  | { kind: 'heading'; key: string }
  | { kind: 'id'; id: string; heading?: string }
  | { kind: 'lang'; value: string }
  | { kind: 'table' }

interface Finding { rule: string; el: HtmlElement; target: string; origin?: Origin }

/** Everything the rules look at, gathered in one walk of the page. */
interface Page {
  root?: HtmlElement
  /** Elements visible to assistive technology, in document order, and as a set. */
  visible: HtmlElement[]
  shown: Set<HtmlElement>
  /** Every element with an id, hidden or not, by id (axe reads ids of hidden elements too). */
  ids: Map<string, HtmlElement[]>
  /** Ids that ARIA attributes and <label for> point at. */
  refs: Set<string>
}

/** Findings on one built page; see staticRules(). */
export function contentFindings(page: { path: string; html: string }, source?: PageSource): Diagnostic[] {
  const scanned = scan(parseDocument(page.html, { withStartIndices: true }).children)
  const findings = [
    ...documentLanguage(scanned), ...images(scanned), ...links(scanned), ...headings(scanned), ...duplicateIds(scanned),
    ...languages(scanned), ...tables(scanned), ...lists(scanned), ...embedded(scanned),
  ]
  if (findings.length === 0) return []
  const locate = locator(page, scanned, source)
  const { help, helpUrl } = axeFacts()
  return findings.map((f): Diagnostic => ({
    code: f.rule === 'DuplicateId' ? f.rule : `axe/${f.rule}`, severity: 'error', ...locate(f),
    message: f.rule === 'DuplicateId' ? `The id "${f.el.attribs.id}" is used more than once on the page (${f.target}): links to it reach only the first.` : `${help.get(f.rule)} (${f.target})`,
    hint: f.rule === 'DuplicateId' ? 'Give each element its own id.' : `How to fix it: ${helpUrl}/${f.rule}`,
  }))
}

// ---------------------------------------------------------------------------------------------
// The walk

/** Not part of the page a browser builds (<template>, and <noscript> where scripts run), or never shown. */
const NOT_RENDERED = new Set(['template', 'noscript', 'script', 'style', 'head', 'title'])
const ID_REF_ATTRIBUTES = new Set(['aria-activedescendant', 'aria-controls', 'aria-describedby', 'aria-details', 'aria-errormessage', 'aria-flowto', 'aria-labelledby', 'aria-owns'])

function scan(nodes: HtmlNode[]): Page {
  const page: Page = { visible: [], shown: new Set(), ids: new Map(), refs: new Set() }
  const walk = (children: HtmlNode[], hidden: boolean) => {
    for (const node of children) {
      if (!DomUtils.isTag(node)) continue
      const el = node as HtmlElement
      if (el.name === 'html' && !page.root) page.root = el
      if (el.name === 'template' || el.name === 'noscript') continue
      const id = el.attribs.id?.trim()
      if (id) (page.ids.get(id) ?? page.ids.set(id, []).get(id)!).push(el)
      for (const name in el.attribs) {
        if (ID_REF_ATTRIBUTES.has(name) || (name === 'for' && el.name === 'label')) for (const ref of tokens(el.attribs[name])) page.refs.add(ref)
      }
      const hiddenHere = hidden || hiddenFromAssistiveTech(el)
      if (!hiddenHere) page.visible.push(el)
      walk(el.children, hiddenHere)
    }
  }
  walk(nodes, false)
  page.shown = new Set(page.visible)
  return page
}

function hiddenFromAssistiveTech(el: HtmlElement): boolean {
  return el.attribs['aria-hidden']?.trim().toLowerCase() === 'true' || hiddenForEveryone(el)
}

/**
 * Hidden from every visitor: not rendered, the hidden attribute, or inside a closed <details>.
 * Style attributes are not read: the site's Content-Security-Policy blocks them, so browsers show what they would hide.
 */
function hiddenForEveryone(el: HtmlElement): boolean {
  if (NOT_RENDERED.has(el.name) || 'hidden' in el.attribs || 'inert' in el.attribs) return true
  const parent = parentOf(el)
  return parent?.name === 'details' && !('open' in parent.attribs) && !(el.name === 'summary' && firstChildNamed(parent, 'summary') === el)
}

// ---------------------------------------------------------------------------------------------
// Rules

function documentLanguage(page: Page): Finding[] {
  const html = page.root
  if (!html) return []
  if (!html.attribs.lang?.trim()) return [{ rule: 'html-has-lang', el: html, target: 'html' }]
  const invalid = LANG_ATTRIBUTES.find((a) => html.attribs[a] && invalidLang(html.attribs[a]))
  return invalid ? [{ rule: 'html-lang-valid', el: html, target: describe(html, invalid) }] : []
}

const LANG_ATTRIBUTES = ['lang', 'xml:lang'] as const

/** axe: a lang whose primary subtag is not a known language, or that is only spaces. */
function invalidLang(value: string): boolean {
  const base = value.trim().split('-')[0]!.toLowerCase()
  return (base !== '' && !axeFacts().validLangs.has(base)) || (value !== '' && !value.trim())
}

function images(page: Page): Finding[] {
  return page.visible
    .filter((el) => el.name === 'img' && lacksAlt(el, page))
    .map((el) => ({ rule: 'image-alt', el, target: describe(el, 'src'), origin: { kind: 'image', key: imageKey(el.attribs.src ?? '') } }))
}

/** image-alt: no alt (or one of only spaces), no other name, and not marked as decoration. */
function lacksAlt(img: HtmlElement, page: Page): boolean {
  if (!nameRequired(img)) return false
  const alt = img.attribs.alt
  if (alt !== undefined && alt !== '' && !alt.trim()) return true // alt=" " reads as a name of nothing
  return alt === undefined && !hasAuthorName(img, page) && !isPresentational(img)
}

function links(page: Page): Finding[] {
  return page.visible
    .filter((el) => el.name === 'a' && el.attribs.href !== undefined && isNameless(el, page))
    .map((el) => ({ rule: 'link-name', el, target: describe(el, 'href'), origin: { kind: 'link', key: el.attribs.href! } }))
}

const isNameless = (el: HtmlElement, page: Page) => !clean(subtreeText(el, page)) && !hasAuthorName(el, page)

function headings(page: Page): Finding[] {
  const found: Finding[] = []
  let previous: { el: HtmlElement; level: number } | undefined
  for (const el of page.visible) {
    const level = headingLevel(el)
    if (level === undefined) continue
    const text = clean(subtreeText(el, page))
    const origin: Origin = { kind: 'heading', key: headingKey(text) }
    if (!text && !hasAuthorName(el, page)) found.push({ rule: 'empty-heading', el, target: describe(el), origin })
    if (previous && level - previous.level > 1) found.push({ rule: 'heading-order', el, target: `${describe(el)} after ${describe(previous.el)}`, origin })
    previous = { el, level }
  }
  return found
}

/** The level of a heading as axe reads it (aria-level first), or undefined for other elements. */
function headingLevel(el: HtmlElement): number | undefined {
  const role = explicitRole(el)
  const tagLevel = /^h[1-6]$/.test(el.name) ? Number(el.name[1]) : undefined
  if (role ? role !== 'heading' : tagLevel === undefined) return undefined
  const ariaLevel = parseInt(el.attribs['aria-level'] ?? '', 10)
  return ariaLevel >= 1 ? ariaLevel : tagLevel ?? 2
}

/**
 * One finding per id used twice, under axe's rule for it: ids that ARIA or a label refers to, ids
 * of elements that take focus, any other id. At a copy from the Markdown if there is one, else at the second.
 */
function duplicateIds(page: Page): Finding[] {
  const found: Finding[] = []
  for (const [id, elements] of page.ids) {
    if (elements.length < 2) continue
    const { duplicateId, duplicateIdActive } = axeFacts()
    const active = duplicateIdActive && elements.some(isFocusable) ? duplicateIdActive : undefined
    const rule = page.refs.has(id) ? 'duplicate-id-aria' : active ?? duplicateId ?? 'DuplicateId'
    const el = elements.find(inProse) ?? elements[1]!
    const heading = headingLevel(el) !== undefined ? headingKey(textOf(el)) : undefined
    found.push({ rule, el, target: elements.slice(0, 3).map((e) => describe(e)).join(', ') + (elements.length > 3 ? ', …' : ''), origin: { kind: 'id', id, heading } })
  }
  return found
}

/** lang on elements other than <html>, where the element has text of its own in that language. */
function languages(page: Page): Finding[] {
  const found: Finding[] = []
  for (const el of page.visible) {
    const invalid = el !== page.root ? LANG_ATTRIBUTES.find((a) => el.attribs[a] !== undefined && invalidLang(el.attribs[a])) : undefined
    if (invalid && hasLangText(el, page)) found.push({ rule: 'valid-lang', el, target: describe(el, invalid), origin: { kind: 'lang', value: el.attribs[invalid]! } })
  }
  return found
}

function lists(page: Page): Finding[] {
  const found: Finding[] = []
  for (const el of page.visible) {
    if ((el.name === 'ul' || el.name === 'ol') && !el.attribs.role && !onlyListItems(el)) found.push({ rule: 'list', el, target: describe(el) })
    if (el.name === 'li' && !el.attribs.role && !inList(el)) found.push({ rule: 'listitem', el, target: describe(el) })
  }
  return found
}

/** axe's only-listitems: no text directly inside, and every child shown is an <li> or has role listitem. */
function onlyListItems(list: HtmlElement): boolean {
  for (const child of list.children) {
    if (DomUtils.isText(child) && child.data.trim()) return false
    if (!DomUtils.isTag(child) || hiddenFromAssistiveTech(child as HtmlElement)) continue
    const role = explicitRole(child as HtmlElement)
    if (role ? role !== 'listitem' : child.name !== 'li') return false
  }
  return true
}

function inList(item: HtmlElement): boolean {
  const parent = parentOf(item)
  if (!parent) return false
  const role = explicitRole(parent) ?? (['ul', 'ol', 'menu'].includes(parent.name) ? 'list' : undefined)
  return role === 'list' || role === 'none' || role === 'presentation'
}

/** frame-title and object-alt: an embedded document needs a name of its own. */
function embedded(page: Page): Finding[] {
  const found: Finding[] = []
  for (const el of page.visible) {
    const named = () => hasAuthorName(el, page) || isPresentational(el)
    if ((el.name === 'iframe' || el.name === 'frame') && !(parseInt(el.attribs.tabindex ?? '', 10) < 0) && !named()) {
      found.push({ rule: 'frame-title', el, target: describe(el, 'src') })
    }
    if (el.name === 'object' && el.attribs.data !== undefined && nameRequired(el) && !named()) found.push({ rule: 'object-alt', el, target: describe(el, 'data') })
  }
  return found
}

// ---------------------------------------------------------------------------------------------
// Tables (axe's data-table heuristics, without the ones that need styles)

interface Grid {
  rows: HtmlElement[][]
  cells: HtmlElement[]
  at: Map<HtmlElement, { x: number; y: number }>
  /** scopeOf, worked out once per cell. */
  scopes: Map<HtmlElement, Scope | undefined>
}

type Scope = 'col' | 'row' | 'colgroup' | 'rowgroup' | 'auto'

function tables(page: Page): Finding[] {
  const found: Finding[] = []
  for (const table of page.visible.filter((el) => el.name === 'table')) {
    const grid = gridOf(table)
    const role = explicitRole(table)
    if (!role || ['table', 'grid', 'treegrid'].includes(role)) {
      const bad = badHeadersAttribute(grid, page)
      if (bad) found.push({ rule: 'td-headers-attr', el: table, target: `${describe(table)} ${describe(bad)}`, origin: { kind: 'table' } })
    }
    if (!isDataTable(table, grid)) continue
    const lonely = grid.cells.find((cell) => isLonelyHeader(cell, grid, page))
    if (lonely) found.push({ rule: 'th-has-data-cells', el: table, target: `${describe(table)} ${describe(lonely)} "${clean(textOf(lonely))}"`, origin: { kind: 'table' } })
    const [a, b, c] = grid.rows
    const large = !!(a && b && c) && a.length >= 3 && b.length >= 3 && c.length >= 3
    const unlabelled = large && grid.cells.find((cell) => isUnlabelledDataCell(cell, grid, page))
    if (unlabelled) found.push({ rule: 'td-has-header', el: table, target: `${describe(table)} td "${clean(textOf(unlabelled)).slice(0, 40)}"`, origin: { kind: 'table' } })
  }
  return found
}

/** The table's rows as the DOM's table.rows orders them: head, bodies and loose rows, foot. */
function rowsOf(table: HtmlElement): HtmlElement[] {
  const head: HtmlElement[] = []
  const body: HtmlElement[] = []
  const foot: HtmlElement[] = []
  for (const child of elementChildren(table)) {
    if (child.name === 'tr') body.push(child)
    else if (['thead', 'tbody', 'tfoot'].includes(child.name)) {
      const rows = elementChildren(child).filter((r) => r.name === 'tr')
      ;(child.name === 'thead' ? head : child.name === 'tfoot' ? foot : body).push(...rows)
    }
  }
  return [...head, ...body, ...foot]
}

/** axe's toGrid: each cell at every position its colspan and rowspan cover. */
function gridOf(table: HtmlElement): Grid {
  const rowElements = rowsOf(table)
  const rows: HtmlElement[][] = rowElements.map(() => [])
  const cells: HtmlElement[] = []
  rowElements.forEach((row, y) => {
    let x = 0
    for (const cell of elementChildren(row).filter((c) => c.name === 'td' || c.name === 'th')) {
      cells.push(cell)
      const rowSpan = parseInt(cell.attribs.rowspan ?? '', 10) === 0 ? rowElements.length : span(cell.attribs.rowspan)
      for (let col = 0; col < span(cell.attribs.colspan); col++) {
        for (let r = 0; r < rowSpan; r++) {
          const line = (rows[y + r] ??= [])
          while (line[x]) x++
          line[x] = cell
        }
        x++
      }
    }
  })
  const at = new Map<HtmlElement, { x: number; y: number }>()
  rows.forEach((line, y) => line.forEach((cell, x) => { if (cell && !at.has(cell)) at.set(cell, { x, y }) }))
  return { rows, cells, at, scopes: new Map() }
}

const span = (value: string | undefined) => Math.max(1, parseInt(value ?? '', 10) || 1)

function isDataTable(table: HtmlElement, grid: Grid): boolean {
  const role = explicitRole(table)
  if ((role === 'presentation' || role === 'none') && !isFocusable(table)) return false
  if (role && ['grid', 'treegrid', 'table', ...LANDMARKS].includes(role)) return true
  if (table.attribs.datatable === '0') return false
  if (table.attribs.summary) return true
  if (elementChildren(table).some((c) => ['thead', 'tfoot', 'caption', 'colgroup'].includes(c.name))) return true
  for (const cell of grid.cells) {
    if (cell.name === 'th' || cell.attribs.scope || cell.attribs.headers || cell.attribs.abbr) return true
    if (['columnheader', 'rowheader'].includes(explicitRole(cell) ?? '')) return true
    const kids = elementChildren(cell)
    if (kids.length === 1 && kids[0]!.name === 'abbr') return true
  }
  if (DomUtils.findOne((el) => el.name === 'table', table.children)) return false
  const rows = rowsOf(table)
  if (rows.length < 2) return false
  const sample = elementChildren(rows[Math.ceil(rows.length / 2)]!).filter((c) => c.name === 'td' || c.name === 'th')
  if (sample.length === 1 && span(sample[0]!.attribs.colspan) === 1) return false
  if (sample.length >= 5 || rows.length >= 20) return true
  // Borders, row colours and the table's width need styles: read as a layout table, as without them.
  if (grid.cells.length < 10) return false
  return !DomUtils.findOne((el) => ['object', 'embed', 'iframe', 'applet'].includes(el.name), table.children)
}

/** axe's getScope: how a cell heads its row or column. */
function scopeOf(cell: HtmlElement, grid: Grid): Scope | undefined {
  if (!grid.scopes.has(cell)) grid.scopes.set(cell, findScope(cell, grid))
  return grid.scopes.get(cell)
}

function findScope(cell: HtmlElement, grid: Grid): Scope | undefined {
  const role = explicitRole(cell)
  if (role === 'columnheader') return 'col'
  if (role === 'rowheader') return 'row'
  const scope = cell.attribs.scope
  if (scope === 'col' || scope === 'row' || scope === 'colgroup' || scope === 'rowgroup') return scope
  if (cell.name !== 'th') return undefined
  const { x, y } = grid.at.get(cell)!
  if (grid.rows[y]!.every((c) => c?.name === 'th')) return 'col'
  if (grid.rows.every((line) => line[x]?.name === 'th')) return 'row'
  return 'auto'
}

const isColumnHeader = (cell: HtmlElement, grid: Grid) => ['col', 'colgroup', 'auto'].includes(scopeOf(cell, grid) ?? '')
const isRowHeader = (cell: HtmlElement, grid: Grid) => ['row', 'rowgroup', 'auto'].includes(scopeOf(cell, grid) ?? '')

/** axe's getHeaders: the cells its headers attribute names, else the header cells before it in its row and column. */
function headersOf(cell: HtmlElement, grid: Grid, page: Page): (HtmlElement | undefined)[] {
  const named = tokens(cell.attribs.headers).map((id) => page.ids.get(id)?.[0])
  if (named.some(Boolean)) return named
  const { x, y } = grid.at.get(cell)!
  const lastRow = y + (parseInt(cell.attribs.rowspan ?? '', 10) === 0 ? grid.rows.length : span(cell.attribs.rowspan)) - 1
  const lastColumn = x + span(cell.attribs.colspan) - 1
  const inBox = (top: number, bottom: number, left: number, right: number) => {
    const found = new Set<HtmlElement>()
    for (let r = top; r <= Math.min(bottom, grid.rows.length - 1); r++) for (let c = left; c <= right; c++) if (grid.rows[r]![c]) found.add(grid.rows[r]![c]!)
    return [...found]
  }
  return [...inBox(y, lastRow, 0, lastColumn).filter((c) => isRowHeader(c, grid)), ...inBox(0, lastRow, x, lastColumn).filter((c) => isColumnHeader(c, grid))]
}

/** th-has-data-cells: a header with text that no data cell below it or beside it refers to. */
function isLonelyHeader(cell: HtmlElement, grid: Grid, page: Page): boolean {
  const role = explicitRole(cell)
  if (!clean(textOf(cell)) || !(cell.name === 'th' || role === 'columnheader' || role === 'rowheader')) return false
  const referenced = grid.cells.some((c) => [...tokens(c.attribs.headers), ...tokens(c.attribs['aria-labelledby'])].includes(cell.attribs.id ?? '\u0000'))
  if (referenced) return false
  const { x, y } = grid.at.get(cell)!
  const describes = (line: (HtmlElement | undefined)[], isHeader: (c: HtmlElement) => boolean) => {
    for (const other of line) {
      if (!other) return false // axe stops at a gap in the grid
      if (!isHeader(other) && headersOf(other, grid, page).includes(cell)) return true
    }
    return false
  }
  const below = grid.rows.slice(y).map((line) => line[x])
  const beside = grid.rows[y]!.slice(x)
  return !((isColumnHeader(cell, grid) && describes(below, (c) => isColumnHeader(c, grid)))
    || (isRowHeader(cell, grid) && describes(beside, (c) => isRowHeader(c, grid))))
}

/** td-has-header: a data cell with content and no header with content. */
function isUnlabelledDataCell(cell: HtmlElement, grid: Grid, page: Page): boolean {
  const role = explicitRole(cell)
  const dataCell = role ? role === 'cell' || role === 'gridcell' : cell.name === 'td'
  if (!dataCell || !hasContent(cell, page) || ariaName(cell, page)) return false
  return !headersOf(cell, grid, page).some((header) => header && hasContent(header, page))
}

/** td-headers-attr: the first cell whose headers attribute names itself, a cell outside the table, or a non-header. */
function badHeadersAttribute(grid: Grid, page: Page): HtmlElement | undefined {
  const roleById = new Map<string, boolean>()
  for (const cell of grid.cells) if (cell.attribs.id) roleById.set(cell.attribs.id, isHeaderCell(cell))
  return grid.cells.find((cell) => {
    if (!cell.attribs.headers?.trim() || !page.shown.has(cell)) return false
    return tokens(cell.attribs.headers).some((id) => id === cell.attribs.id || roleById.get(id) !== true)
  })
}

const isHeaderCell = (cell: HtmlElement) => {
  const role = explicitRole(cell)
  return role ? role === 'columnheader' || role === 'rowheader' : cell.name === 'th'
}

// ---------------------------------------------------------------------------------------------
// Names (the parts of the accessible name computation these rules ask about)

/** A name from aria-labelledby, aria-label or title: what rules accept besides an element's own text. */
function hasAuthorName(el: HtmlElement, page: Page): boolean {
  return !!ariaName(el, page) || !!el.attribs.title?.trim()
}

const ariaName = (el: HtmlElement, page: Page) => clean(labelledByText(el, page)) || clean(el.attribs['aria-label'] ?? '')

function labelledByText(el: HtmlElement, page: Page): string {
  return tokens(el.attribs['aria-labelledby']).map((id) => page.ids.get(id)?.[0]).map((ref) => (ref ? textOf(ref) : '')).join(' ')
}

/** The text an element's content gives it: text, and the names of the elements inside, less what is hidden. */
function subtreeText(el: HtmlElement, page: Page): string {
  let text = ''
  for (const child of el.children) {
    if (DomUtils.isText(child)) text += child.data
    else if (DomUtils.isTag(child)) text += ` ${nameInContent(child as HtmlElement, page)} `
  }
  return text
}

function nameInContent(el: HtmlElement, page: Page): string {
  if (hiddenFromAssistiveTech(el)) return ''
  const author = ariaName(el, page)
  if (author) return author
  if (el.name === 'img' || (el.name === 'input' && el.attribs.type === 'image')) return el.attribs.alt ?? el.attribs.title ?? ''
  if (el.name === 'input') return el.attribs.value ?? el.attribs.title ?? ''
  if (el.name === 'svg') {
    const title = firstChildNamed(el, 'title')
    if (title) return textOf(title)
  }
  return clean(subtreeText(el, page)) || (el.attribs.title ?? '')
}

/** Content a reader perceives: text, an image or control, or a label (axe's hasContent). */
function hasContent(el: HtmlElement, page: Page): boolean {
  if (el.children.some((c) => DomUtils.isText(c) && c.data.trim())) return true
  if (isVisualContent(el) || ariaName(el, page)) return true
  return elementChildren(el).some((child) => !hiddenFromAssistiveTech(child) && hasContent(child, page))
}

/** axe's hasLangText: text of its own that no nested lang takes over. */
function hasLangText(el: HtmlElement, page: Page): boolean {
  if (el.children.some((c) => DomUtils.isText(c) && c.data.trim())) return true
  if (isVisualContent(el)) return !!clean(nameInContent(el, page))
  return elementChildren(el).some((child) => child.attribs.lang === undefined && !hiddenForEveryone(child) && hasLangText(child, page))
}

const VISUAL = new Set(['img', 'iframe', 'object', 'video', 'audio', 'canvas', 'svg', 'math', 'button', 'select', 'textarea', 'progress', 'meter'])
const VISUAL_ROLES = new Set(['checkbox', 'img', 'meter', 'progressbar', 'scrollbar', 'radio', 'slider', 'spinbutton', 'textbox'])

function isVisualContent(el: HtmlElement): boolean {
  const role = explicitRole(el)
  if (role) return VISUAL_ROLES.has(role)
  return VISUAL.has(el.name) || (el.name === 'input' && el.attribs.type !== 'hidden')
}

// ---------------------------------------------------------------------------------------------
// Roles

const LANDMARKS = ['banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search']
/** Roles whose elements axe requires a name of, whatever the element. */
const NAME_REQUIRED = new Set(['alertdialog', 'application', 'button', 'checkbox', 'combobox', 'dialog', 'image', 'img', 'link', 'listbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'meter', 'option', 'progressbar', 'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'textbox', 'toolbar', 'treeitem', 'graphics-document', 'graphics-symbol'])
const GLOBAL_ARIA = ['aria-atomic', 'aria-braillelabel', 'aria-brailleroledescription', 'aria-busy', 'aria-controls', 'aria-current', 'aria-describedby', 'aria-details', 'aria-dropeffect', 'aria-flowto', 'aria-grabbed', 'aria-hidden', 'aria-keyshortcuts', 'aria-label', 'aria-labelledby', 'aria-live', 'aria-owns', 'aria-relevant', 'aria-roledescription']

const validRoles = new Map<string, boolean>()

/** axe's getExplicitRole: the role attribute when it names one ARIA role (DPUB roles aside), else none. */
function explicitRole(el: HtmlElement): string | undefined {
  const role = el.attribs.role?.trim().toLowerCase()
  if (!role) return undefined
  if (!validRoles.has(role)) validRoles.set(role, !role.startsWith('doc-') && axeFacts().isValidRole(role))
  return validRoles.get(role) ? role : undefined
}

/** axe's no-explicit-name-required: no role, a presentational one, one that needs a name, or focusable. */
function nameRequired(el: HtmlElement): boolean {
  const role = explicitRole(el)
  return !role || role === 'none' || role === 'presentation' || NAME_REQUIRED.has(role) || isFocusable(el)
}

/** role none/presentation that holds: browsers ignore it on focusable elements and ones with global ARIA attributes. */
function isPresentational(el: HtmlElement): boolean {
  const role = explicitRole(el)
  return (role === 'none' || role === 'presentation') && !isFocusable(el) && !GLOBAL_ARIA.some((a) => a in el.attribs)
}

function isFocusable(el: HtmlElement): boolean {
  if ('disabled' in el.attribs) return false
  if (!Number.isNaN(parseInt(el.attribs.tabindex ?? '', 10))) return true
  if ((el.name === 'a' || el.name === 'area') && el.attribs.href !== undefined) return true
  if (el.name === 'input') return el.attribs.type !== 'hidden'
  return ['button', 'select', 'textarea', 'iframe'].includes(el.name) || el.attribs.contenteditable === 'true'
}

// ---------------------------------------------------------------------------------------------
// Where a finding points

/** Inside the Markdown content: the templates render it in elements with class `prose`. */
function inProse(el: HtmlElement): boolean {
  for (let node = parentOf(el); node; node = parentOf(node)) if (tokens(node.attribs.class).includes('prose')) return true
  return false
}

function locator(page: { path: string; html: string }, scanned: Page, source?: PageSource) {
  const inHtml = lineColumn(page.html)
  const inSource = source && lineColumn(source.text)
  const candidates = source && markdownCandidates(source.text)
  return (finding: Finding): Pick<Diagnostic, 'file' | 'line' | 'column'> => {
    const offset = source && candidates && finding.origin && inProse(finding.el) ? originIn(finding, scanned, source.text, candidates) : undefined
    if (offset !== undefined) return { file: source!.file, ...inSource!(offset) }
    return { file: page.path, ...inHtml(finding.el.startIndex ?? 0) }
  }
}

interface Candidates { images: Candidate[]; links: Candidate[]; headings: Candidate[]; tables: Candidate[] }
interface Candidate {
  offset: number
  /** The image's file name, the link's URL, the heading's text. */
  key: string
  /** Written without a name: an image without alt text, a link without text. */
  nameless?: boolean
}

/** The offset in the Markdown of the element a finding is about, or undefined when no source matches. */
function originIn(finding: Finding, page: Page, text: string, candidates: () => Candidates): number | undefined {
  const origin = finding.origin!
  // Elements alike pair up in order: the second such image in the page's prose is the second in the file.
  const nth = (matches: Candidate[], alike: (el: HtmlElement) => boolean) => {
    if (matches.length === 0) return undefined
    const index = page.visible.filter((el) => alike(el) && inProse(el)).indexOf(finding.el)
    return matches[Math.min(Math.max(index, 0), matches.length - 1)]!.offset
  }
  /** Among candidates alike, those written without a name when the finding is about a missing one. */
  const likeFinding = (matches: Candidate[], faulty: (el: HtmlElement) => boolean, alike: (el: HtmlElement) => boolean) => {
    const nameless = matches.filter((c) => c.nameless)
    return nameless.length > 0 ? nth(nameless, (el) => alike(el) && faulty(el)) : nth(matches, alike)
  }
  switch (origin.kind) {
    case 'image': {
      const alike = (el: HtmlElement) => el.name === 'img' && imageKey(el.attribs.src ?? '') === origin.key
      return likeFinding(candidates().images.filter((c) => c.key === origin.key), (el) => lacksAlt(el, page), alike)
    }
    case 'link': {
      // The same URL, else one leading to the same place ('../contact.md', '/cn/contact/'), else the end of its path.
      const relations = [(url: string) => url === origin.key, (url: string) => linkKey(url) === linkKey(origin.key), (url: string) => sameLinkEnd(url, origin.key)]
      for (const related of relations) {
        const matches = candidates().links.filter((c) => related(c.key))
        const alike = (el: HtmlElement) => el.name === 'a' && el.attribs.href !== undefined && related(el.attribs.href)
        if (matches.length > 0) return likeFinding(matches, (el) => isNameless(el, page), alike)
      }
      return undefined
    }
    case 'heading':
      return nth(candidates().headings.filter((c) => c.key === origin.key), (el) => headingLevel(el) !== undefined && headingKey(clean(subtreeText(el, page))) === origin.key)
    case 'id': {
      const id = origin.id.replace(/^user-content-/, '')
      const written = new RegExp(`\\{#${escapeRegExp(id)}\\}|(?<![\\w-])id\\s*=\\s*["']?${escapeRegExp(id)}(?=["'\\s>/]|$)`).exec(text)
      if (written) return written.index
      const heading = origin.heading
      return heading === undefined ? undefined : candidates().headings.find((c) => c.key === heading)?.offset
    }
    case 'lang':
      return new RegExp(`\\blang\\s*=\\s*["']?${escapeRegExp(origin.value)}(?=["'\\s>/]|$)`).exec(text)?.index
    case 'table': {
      const tables = page.visible.filter((el) => el.name === 'table' && inProse(el))
      const written = candidates().tables
      return written.length === tables.length ? written[tables.indexOf(finding.el)]?.offset : undefined
    }
  }
}

/** Images, links, headings and tables as written in a Markdown file (raw HTML included), found once per page and only when needed. */
function markdownCandidates(text: string): () => Candidates {
  let found: Candidates | undefined
  return () => (found ??= findCandidates(text))
}

function findCandidates(text: string): Candidates {
  const body = frontMatterEnd(text)
  const all = (pattern: RegExp) => {
    const list: RegExpExecArray[] = []
    pattern.lastIndex = body
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) list.push(m)
    return list
  }
  const matches = (pattern: RegExp, key: (m: RegExpExecArray) => string, nameless?: (m: RegExpExecArray) => boolean): Candidate[] =>
    all(pattern).map((m) => ({ offset: m.index, key: key(m), nameless: nameless?.(m) }))
  const definitions = new Map(all(/^ {0,3}\[((?:[^\]\\]|\\.)+)\]:[ \t]*<?([^\s>]+)>?/gm).map((m) => [m[1]!.toLowerCase(), m[2]!]))
  const reference = (label: string) => definitions.get(label.toLowerCase()) ?? ''
  const byOffset = (a: Candidate, b: Candidate) => a.offset - b.offset
  const blankAlt = (alt: string) => alt !== '' && !alt.trim()
  const images = [
    ...matches(/!\[((?:[^\[\]\\]|\\.)*)\]\(\s*<?([^\s)>]*)>?/g, (m) => m[2]!, (m) => blankAlt(m[1]!)),
    ...matches(/!\[((?:[^\[\]\\]|\\.)*)\]\[((?:[^\]\\]|\\.)*)\]/g, (m) => reference(m[2] || m[1]!), (m) => blankAlt(m[1]!)),
    ...matches(/<img\b[^>]*>/gi, (m) => attributeIn(m[0], 'src') ?? '', (m) => rawNameless(m[0], 'alt')),
  ].map((c) => ({ ...c, key: imageKey(c.key) })).sort(byOffset)
  const linkText = /((?:[^\[\]\\]|\\.|\[(?:[^\]\\]|\\.)*\])*)/.source
  const links = [
    ...matches(new RegExp(`(?<!!)\\[${linkText}\\]\\(\\s*<?([^\\s)>]*)>?`, 'g'), (m) => m[2]!, (m) => !clean(markdownText(m[1]!))),
    ...matches(new RegExp(`(?<![!\\]])\\[${linkText}\\]\\[((?:[^\\]\\\\]|\\\\.)*)\\]`, 'g'), (m) => reference(m[2] || m[1]!), (m) => !clean(markdownText(m[1]!))),
    ...matches(/<a\b[^>]*>(?:([\s\S]*?)<\/a>)?/gi, (m) => attributeIn(m[0], 'href') ?? '\u0000', (m) => rawNameless(m[0], 'text', m[1] ?? '')),
    ...matches(/<((?:https?|mailto|tel):[^\s>]+)>/gi, (m) => m[1]!),
  ].sort(byOffset)
  const headings = [
    ...matches(/^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/gm, (m) => headingKey(markdownText(m[1] ?? ''))),
    ...matches(/^ {0,3}(\S.*)\n {0,3}(?:=+|-+)[ \t]*$/gm, (m) => headingKey(markdownText(m[1]!))),
    ...matches(/<h[1-6]\b[^>]*>([\s\S]*?)<\/h[1-6]>/gi, (m) => headingKey(markdownText(m[1]!))),
  ].sort(byOffset)
  const tables = [
    ...matches(/^ {0,3}(\|?[^\n]*\|[^\n]*)\n {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/gm, () => ''),
    ...matches(/<table\b/gi, () => ''),
  ].sort(byOffset)
  return { images, links, headings, tables }
}

/** The value of an attribute in a raw HTML tag. */
function attributeIn(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)
  return m ? m[1] ?? m[2] ?? m[3] : undefined
}

/** A raw <img> without alt text, or a raw <a> without text, and neither with aria-label or title. */
function rawNameless(tag: string, name: 'alt' | 'text', content = ''): boolean {
  if (attributeIn(tag, 'aria-label')?.trim() || attributeIn(tag, 'title')?.trim()) return false
  if (name === 'alt') return !attributeIn(tag, 'alt')?.trim() && attributeIn(tag, 'alt') !== ''
  const alts = content.replace(/<img\b[^>]*>/gi, (img) => ` ${attributeIn(img, 'alt') ?? ''} `)
  return !clean(markdownText(alts))
}

/** Where the body starts: after the front matter, which holds no rendered Markdown. */
function frontMatterEnd(text: string): number {
  const m = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.exec(text)
  return m ? m[0].length : 0
}

/** Heading text of a Markdown line, as the page shows it: links and images by their text, emphasis and tags dropped. */
function markdownText(source: string): string {
  return source.replace(/!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)/g, '$1').replace(/!?\[((?:[^\]\\]|\\.)*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '').replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/[*_`~]/g, '').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&')
}

const headingKey = (text: string) => clean(text.replace(/[*_`~]/g, '')).toLowerCase()

/** An image by its file name: the build renames processed images to `name.<hash>-<width>.<format>`. */
function imageKey(url: string): string {
  const file = decode(url.split(/[?#]/)[0]!).split('/').at(-1) ?? ''
  return file.replace(/\.[^.]*$/, '').replace(/\.[0-9a-f]{6,}-\d+$/, '').toLowerCase()
}

/** A link by where it leads, written either way: '/contact/', '../contact.md', '/cn/contact/'. */
function linkKey(url: string): string {
  const { host, segments, fragment } = linkParts(url)
  return `${host}/${segments.at(-1) ?? ''}#${fragment}`
}

/** Whether a written link's path is the end of the page's (a locale prefix added by the build). */
function sameLinkEnd(written: string, built: string): boolean {
  const a = linkParts(written)
  const b = linkParts(built)
  return a.host === b.host && a.fragment === b.fragment && a.segments.every((s, i) => b.segments[b.segments.length - a.segments.length + i] === s)
}

function linkParts(url: string): { host: string; segments: string[]; fragment: string } {
  const value = decode(url.trim())
  const hash = value.indexOf('#')
  const fragment = hash === -1 ? '' : value.slice(hash + 1).replace(/^user-content-/, '')
  let path = (hash === -1 ? value : value.slice(0, hash)).replace(/\?.*$/, '')
  if (/^(mailto|tel):/i.test(path)) return { host: path.toLowerCase(), segments: [], fragment }
  const origin = /^[a-z][\w+.-]*:\/\/[^/]*/i.exec(path)?.[0] ?? ''
  path = path.slice(origin.length)
  const segments = path.split('/').filter((s) => s && s !== '.' && s !== '..').map((s) => s.replace(/\.(md|html?)$/i, ''))
  if (segments.at(-1) === 'index') segments.pop()
  return { host: origin.toLowerCase(), segments, fragment }
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Tag and id (or classes), and one telling attribute: 'img.ph-1a2b[src="/images/x.jpg"]' */
function describe(el: HtmlElement, attribute?: string): string {
  const id = el.attribs.id
  const classes = tokens(el.attribs.class).slice(0, 2).map((c) => `.${c}`).join('')
  const value = attribute && el.attribs[attribute]
  const shown = value === undefined || value === '' ? '' : `[${attribute}="${value.length > 60 ? `${value.slice(0, 57)}…` : value}"]`
  return `${el.name}${id ? `#${id}` : classes}${shown}`
}

const tokens = (value: string | undefined): string[] => value?.trim().split(/\s+/).filter(Boolean) ?? []
/** axe's sanitize: spaces, no-break spaces and line breaks collapse; an empty result is no text. */
const clean = (text: string) => text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim()
const textOf = (el: HtmlElement) => DomUtils.textContent(el)
const parentOf = (el: HtmlElement): HtmlElement | undefined => (el.parent && DomUtils.isTag(el.parent) ? el.parent as HtmlElement : undefined)
const elementChildren = (el: HtmlElement): HtmlElement[] => el.children.filter((c) => DomUtils.isTag(c)) as HtmlElement[]
const firstChildNamed = (el: HtmlElement, name: string) => elementChildren(el).find((c) => c.name === name)

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
