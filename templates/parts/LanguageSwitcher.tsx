import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/**
 * Links to this page in the other languages, or to their home page where it has no translation.
 * Each link is written in its own language, so it is read out in that language.
 */
export function LanguageSwitcher({ page }: { page: Page }) {
  const others = page.site.locales.filter((l) => l.code !== page.locale.code)
  return (
    <ul className="language-switcher">
      {others.map((l) => (
        <li key={l.code}>
          <a href={page.route.alternates[l.code] ?? page.url('/', l.code)} hrefLang={l.hreflang} data-locale={l.code}>
            <Icon name="globe" /><span className="visually-hidden">{page.t('nav.language')}: </span>
            <span lang={l.lang}>{page.languageName(l.code)}</span>
          </a>
        </li>
      ))}
    </ul>
  )
}
