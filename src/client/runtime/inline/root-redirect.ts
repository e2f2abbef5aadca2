/**
 * Inline in <head> of every page; acts on the root path `/` only. It reads the languages the
 * page exists in from its hreflang links (placed before this script), then:
 * - cookie i18n_redirected names another language: go there;
 * - no cookie, and the browser's first matching language is another one: remember it, go there;
 * - otherwise stay. `location.replace` keeps Back from bouncing.
 * A language lives at `/<code>/`, except the default, which is this page's own (`/`).
 */
const COOKIE = 'i18n_redirected'

if (location.pathname === '/') {
  const here = document.documentElement.getAttribute('data-locale')
  const homes: Record<string, string> = {}
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel=alternate][hreflang]')) {
    const path = new URL(link.href).pathname
    homes[link.hreflang.toLowerCase().split('-')[0]!] = path.split('/')[1] || here || ''
  }
  const cookie = (document.cookie.match(/(?:^|; )i18n_redirected=([^;]*)/) || [])[1]
  let target = cookie
  if (!cookie) {
    for (const tag of navigator.languages || []) {
      target = homes[tag.toLowerCase().split('-')[0]!]
      if (target) break
    }
    if (target && target !== here) document.cookie = `${COOKIE}=${target}; path=/; max-age=31536000; SameSite=Lax`
  }
  const known = Object.keys(homes).some((lang) => homes[lang] === target)
  if (target && target !== here && known) location.replace(`/${target}/`)
}

export {}
