/** One page of every page type in every language it exists in: the design tests and screenshots visit these. */
import type { BrowserContext } from 'playwright-core'

export interface PageType { name: string; url: string }

const bilingual = [
  ['home', '/'], ['services', '/services/'], ['service', '/services/rhinoplasty/'], ['doctor', '/dr-evelyn-quah/'],
  ['contact', '/contact/'], ['thank-you', '/thank-you/'], ['privacy', '/privacy/'], ['404', '/404.html'],
] as const
const englishOnly = [['blog-index', '/blog/'], ['article', '/blog/how-to-prepare-for-a-rhinoplasty/']] as const

export const PAGE_TYPES: PageType[] = [
  ...[...bilingual, ...englishOnly].map(([name, url]) => ({ name: `en-${name}`, url })),
  ...bilingual.map(([name, url]) => ({ name: `cn-${name}`, url: `/cn${url}` })),
]

/** Keeps a browser context on the local server: the font service and the map are not reached. */
export async function offline(context: BrowserContext): Promise<void> {
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort())
}
