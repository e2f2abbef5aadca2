/** sitemap.xml and robots.txt from the route table. Pure. */
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Every indexable page, with its alternates (itself included) and x-default where it has any. */
export function sitemap(table: RouteTable, site: SiteConfig): OutputFile {
  const hreflang = new Map(site.locales.map((l) => [l.code, l.hreflang]))
  const entries = table.routes
    .filter((r) => r.status === 200 && r.template !== 'thank-you')
    .map((r) => {
      const alternates = Object.entries(r.alternates)
      const links = alternates.length > 1
        ? [...alternates.map(([code, url]) => [hreflang.get(code)!, url] as const), ...(r.alternates[site.defaultLocale] ? [['x-default', r.alternates[site.defaultLocale]!] as const] : [])]
          .map(([lang, url]) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${escape(site.baseUrl + url)}"/>`).join('')
        : ''
      return `<url><loc>${escape(site.baseUrl + r.url)}</loc>${links}</url>`
    })
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join('\n')}\n</urlset>\n`
  return { path: 'sitemap.xml', contents: xml }
}

export function robots(site: SiteConfig): OutputFile {
  return { path: 'robots.txt', contents: `User-agent: *\nAllow: /\n\nSitemap: ${site.baseUrl}/sitemap.xml\n` }
}
