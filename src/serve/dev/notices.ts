/** The words of the preview notices, from the site's locale files (`preview.*`), in each page's language. */
import { loadMessages } from '../../content/messages.ts'
import { readSource } from '../../content/read.ts'
import { parseSite } from '../../content/site.ts'
import type { Messages, Route } from '../../types.ts'

/**
 * The notices of each page that needs any (drafts, pages shown in another language), by output
 * path. The messages are read only when some page needs a notice, so ordinary rebuilds pay nothing.
 */
export async function previewNotices(root: string, routes: Route[]): Promise<Map<string, string[]>> {
  const marked = routes.filter((r) => r.draft || r.contentLocale)
  if (marked.length === 0) return new Map()
  const messages = await readMessages(root)
  return new Map(marked.map((route) => {
    const m = messages[route.locale] ?? {}
    const notices: string[] = []
    if (route.draft) notices.push(m['preview.draft'] ?? 'Draft')
    if (route.contentLocale) {
      const language = messages[route.contentLocale]?.['language.name'] ?? route.contentLocale
      notices.push((m['preview.untranslated'] ?? 'Not translated: {language}').replace('{language}', language))
    }
    return [route.output, notices]
  }))
}

async function readMessages(root: string): Promise<Record<string, Messages>> {
  const { site } = parseSite(readSource(root, 'content/site.yaml'))
  if (!site) return {}
  const files = site.locales.map((l) => readSource(root, `locales/${l.messages}.yaml`))
  return loadMessages(files, site).messages
}
