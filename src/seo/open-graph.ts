/**
 * Sharing images: one Open Graph picture per page type and language (the clinic's name, the
 * section, and the leaf of the logo drawn large), and the logo search engines show. Drawn as SVG
 * and turned into PNG with sharp at build time. Text only: no photographs of people or results.
 */
import { compute, hashOf, type Remember } from '../util/memo.ts'
import { keptFiles } from '../util/kept-files.ts'
import type { Messages, OutputFile, Route, RouteTable, SiteConfig, TemplateName } from '../types.ts'

export const OG_WIDTH = 1200
export const OG_HEIGHT = 630

/** The image a page shares. Example: { url: '/og/service-cn.png', width: 1200, height: 630 } */
export function openGraphImage(route: Pick<Route, 'template' | 'locale'>): { url: string; width: number; height: number } {
  return { url: `/og/${route.template}-${route.locale}.png`, width: OG_WIDTH, height: OG_HEIGHT }
}

/** The section named under the clinic's name, as a message key; page types without one show the name alone. */
const SECTION_LABEL: Partial<Record<TemplateName, string>> = {
  services: 'nav.services', service: 'nav.services', doctor: 'home.doctors',
  contact: 'nav.contact', 'thank-you': 'nav.contact', 'blog-index': 'nav.blog', article: 'nav.blog',
}

const COLOURS = { ground: '#f6f1ea', disc: '#e4dacd', leaf: '#5b3a2e', ink: '#2b211c', accent: '#a8773f' }

/** Every image the pages of `table` share, and the logo (`/og/logo.png`); `kept`: where drawings are kept between builds. */
export function openGraphImages(table: RouteTable, site: SiteConfig, messages: Record<string, Messages>, remember: Remember = compute, kept = keptFiles()): Promise<OutputFile[]> {
  const png = (svg: string) => remember(`og ${svg}`, [svg], () => kept(`og-${hashOf(svg)}.png`, () => drawPng(svg)))
  return remember('og images', [table, site, messages], () => drawImages(table, site, messages, png))
}

async function drawImages(table: RouteTable, site: SiteConfig, messages: Record<string, Messages>, png: (svg: string) => Promise<Uint8Array>): Promise<OutputFile[]> {
  const kinds = new Map(table.routes.map((r) => [openGraphImage(r).url, r]))
  const drawn = new Map<string, Promise<Uint8Array>>() // page types that share a section share a drawing
  const images = [...kinds].map(async ([url, route]) => {
    const key = SECTION_LABEL[route.template]
    const svg = card(site.name, key ? messages[route.locale]?.[key] : undefined)
    if (!drawn.has(svg)) drawn.set(svg, png(svg))
    return { path: url.slice(1), contents: await drawn.get(svg)! }
  })
  return Promise.all([...images, png(logo()).then((contents) => ({ path: 'og/logo.png', contents }))])
}

async function drawPng(svg: string): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp')
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer())
}

/** The leaf of the logo, in a 36-unit box. */
const LEAF = '<path d="M18 7c6 5 7 13 0 22C11 20 12 12 18 7z"/>'

function card(fullName: string, fullSection: string | undefined): string {
  const [name, section] = [clipped(fullName), fullSection && clipped(fullSection)]
  const size = fitting(name, 64, 680)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">
<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="${COLOURS.ground}"/>
<circle cx="1060" cy="315" r="230" fill="${COLOURS.disc}"/>
<g transform="translate(880 135) scale(10)" fill="${COLOURS.leaf}">${LEAF}<path d="M18 12v15" stroke="${COLOURS.ground}" stroke-width=".6"/></g>
<rect x="96" y="${300 - size}" width="72" height="6" fill="${COLOURS.accent}"/>
<text x="96" y="${330}" font-family="sans-serif" font-size="${size}" font-weight="600" fill="${COLOURS.ink}">${escapeXml(name)}</text>
${section ? `<text x="96" y="${330 + 80}" font-family="sans-serif" font-size="44" fill="${COLOURS.leaf}">${escapeXml(section)}</text>` : ''}
</svg>`
}

function logo(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 36 36">
<rect width="36" height="36" fill="${COLOURS.ground}"/>
<circle cx="18" cy="18" r="16" fill="none" stroke="${COLOURS.leaf}" stroke-width="1.2"/>
<g fill="${COLOURS.leaf}">${LEAF}</g><path d="M18 12v15" stroke="${COLOURS.ground}" stroke-width=".8"/>
</svg>`
}

/** A font size at which `text` fits `width` pixels, CJK characters counted as a full em. */
function fitting(text: string, largest: number, width: number): number {
  const ems = [...text].reduce((sum, c) => sum + (/[\u3000-\u9fff\uff00-\uffef]/.test(c) ? 1 : 0.62), 0)
  return Math.min(largest, Math.floor(width / Math.max(ems, 1)))
}

/**
 * A label cut to what the image can show: a page title or message thousands of characters long
 * would be drawn at a fraction of a pixel, and drawing it took the image library minutes.
 */
function clipped(text: string, most = 80): string {
  const characters = [...text]
  return characters.length <= most ? text : `${characters.slice(0, most - 1).join('')}…`
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
