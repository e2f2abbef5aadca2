/** Remembers the visitor's language in the i18n_redirected cookie (path /, 365 days, SameSite=Lax). */
const COOKIE = 'i18n_redirected'

function remember(code: string): void {
  document.cookie = `${COOKIE}=${code}; path=/; max-age=${365 * 24 * 60 * 60}; SameSite=Lax`
}

/** Writes the language of the page on screen; called on every page shown. */
export function rememberLanguage(): void {
  const current = document.documentElement.dataset.locale
  if (current) remember(current)
}

/** The switcher writes the target language before the browser follows the link (a full page load). */
export function watchLanguageSwitcher(): void {
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element && event.target.closest('.language-switcher a[data-locale]')
    if (link instanceof HTMLAnchorElement && link.dataset.locale) remember(link.dataset.locale)
  })
}
