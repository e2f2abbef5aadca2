/**
 * Hosts with one 404 page for the whole site (GitHub Pages; CloudFront's error page) serve the
 * default language's `/404.html` for `/cn/anything`. A small inline script in that page fetches
 * the 404 page of the language the address names and puts it in place; without JavaScript the
 * page stays in the default language, with its link home. The status stays 404. Pure.
 */
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'

/** The default language's 404 page with the script at the end of its body (outside the head, whose scripts the runtime compares between pages). */
export function withLanguageNotFound(files: OutputFile[], table: RouteTable, site: SiteConfig): OutputFile[] {
  const root = table.routes.find((r) => r.status === 404 && r.locale === site.defaultLocale)
  const pages: Record<string, string> = {}
  for (const r of table.routes) if (r.status === 404 && r.locale !== site.defaultLocale) pages[r.locale] = r.url
  if (!root || Object.keys(pages).length === 0) return files
  const script = `<script>${notFoundScript(pages)}</script>`
  return files.map((f) => (f.path === root.output && typeof f.contents === 'string' ? { path: f.path, contents: f.contents.replace('</body>', `${script}</body>`) } : f))
}

/** `pages`: the 404 page of each language by its URL prefix. Example: { cn: '/cn/404.html' } */
export function notFoundScript(pages: Record<string, string>): string {
  return `(function(){var pages=${JSON.stringify(pages).replace(/</g, '\\u003c')};var code=location.pathname.split('/')[1];var url=pages[code];`
    + `if(!url||document.documentElement.getAttribute('data-locale')===code)return;`
    + `fetch(url).then(function(r){return r.ok?r.text():''}).then(function(html){if(!html)return;`
    + `var page=new DOMParser().parseFromString(html,'text/html');`
    + `function swap(){var root=document.documentElement;root.lang=page.documentElement.lang;root.setAttribute('data-locale',code);`
    + `document.title=page.title;document.body.replaceWith(document.adoptNode(page.body))}`
    + `if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',swap);else swap()})})()`
}
