/**
 * Localised URLs. Pure and dependency-free: shared by the build and by browser code.
 * Strategy: the default locale lives at the root, every other locale under `/<code>/`.
 *
 *   localeUrl('en', '/contact/', 'en')  -> '/contact/'
 *   localeUrl('cn', '/contact/', 'en')  -> '/cn/contact/'
 *   localeUrl('cn', '/', 'en')          -> '/cn/'
 */
export function localeUrl(locale: string, path: string, defaultLocale: string): string {
  const clean = withTrailingSlash(path.startsWith('/') ? path : `/${path}`)
  return locale === defaultLocale ? clean : `/${locale}${clean}`
}

/**
 * Splits a site URL into its locale and the locale-neutral path.
 *
 *   splitLocale('/cn/services/ear/', ['en', 'cn'], 'en') -> { locale: 'cn', path: '/services/ear/' }
 *   splitLocale('/blog/', ['en', 'cn'], 'en')            -> { locale: 'en', path: '/blog/' }
 */
export function splitLocale(url: string, locales: readonly string[], defaultLocale: string): { locale: string; path: string } {
  const first = url.split('/')[1] ?? ''
  if (first !== defaultLocale && locales.includes(first)) {
    return { locale: first, path: url.slice(first.length + 1) || '/' }
  }
  return { locale: defaultLocale, path: url }
}

/** Adds the trailing slash every page URL carries, except on file names such as `/404.html`. */
export function withTrailingSlash(path: string): string {
  if (path.endsWith('/') || /\.[a-z0-9]+$/i.test(path)) return path
  return `${path}/`
}

/**
 * Where a URL is written inside the output folder.
 *
 *   outputFileFor('/')              -> 'index.html'
 *   outputFileFor('/cn/contact/')   -> 'cn/contact/index.html'
 *   outputFileFor('/cn/404.html')   -> 'cn/404.html'   (hosts look for 404.html by name)
 */
export function outputFileFor(url: string): string {
  const path = url.replace(/^\//, '')
  return path === '' || path.endsWith('/') ? `${path}index.html` : path
}

/** The URL a file of the output folder is served at: outputFileFor turned round. Example: 'cn/contact/index.html' -> '/cn/contact/' */
export const urlOfOutput = (file: string): string => `/${file.replace(/(^|\/)index\.html$/, '$1')}`

/** The error page that answers for a URL: the 404 page of the URL's locale. */
export function notFoundPageFor(url: string, locales: readonly string[], defaultLocale: string): string {
  const { locale } = splitLocale(url, locales, defaultLocale)
  return localeUrl(locale, '/404.html', defaultLocale)
}
