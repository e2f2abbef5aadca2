import type { Page } from '../src/page.ts'
import { Logo } from './parts/Logo.tsx'

/** Logo, main navigation (a menu button on small screens) and the language switcher. */
export function Header({ page }: { page: Page }) {
  const { t, url, route } = page
  const blog = page.site.singleLocaleSections.blog
  const items = [
    { href: url('/services/'), label: t('nav.services') },
    ...page.collections.doctors[route.locale]!.map((d) => ({ href: url(d.path), label: d.data.title })),
    ...(blog ? [{ href: url('/blog/', blog), label: t('nav.blog'), lang: blog !== route.locale ? blog : undefined }] : []),
    { href: url('/contact/'), label: t('nav.contact') },
  ]
  const current = (href: string) => (href === route.url ? 'page' : route.url.startsWith(href) && href !== url('/') ? 'true' : undefined)
  return (
    <header className="site-header" id="top">
      <div className="wrap site-header__bar">
        <a className="brand" href={url('/')} aria-current={route.url === url('/') ? 'page' : undefined}>
          <Logo />
          <span className="brand__name">{page.site.name}</span>
        </a>
        <button className="menu-button" type="button" aria-expanded="false" aria-controls="site-nav" hidden>
          {t('nav.menu')}
        </button>
        <nav id="site-nav" className="site-nav" aria-label={t('nav.label')}>
          <ul>
            {items.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={current(item.href)} hrefLang={item.lang}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
          <LanguageSwitcher page={page} />
        </nav>
      </div>
    </header>
  )
}

/** Links to this page in the other languages, or to their home page where it has no translation. */
function LanguageSwitcher({ page }: { page: Page }) {
  const others = page.site.locales.filter((l) => l.code !== page.locale.code)
  return (
    <ul className="language-switcher" aria-label={page.t('nav.language')}>
      {others.map((l) => (
        <li key={l.code}>
          <a href={page.route.alternates[l.code] ?? page.url('/', l.code)} hrefLang={l.lang} lang={l.lang} data-locale={l.code}>
            {page.languageName(l.code)}
          </a>
        </li>
      ))}
    </ul>
  )
}
