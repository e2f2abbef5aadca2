import type { Page } from '../src/page/index.ts'
import { Icon } from './parts/Icon.tsx'
import { LanguageSwitcher } from './parts/LanguageSwitcher.tsx'
import { Logo } from './parts/Logo.tsx'
import { SpeakToUs } from './parts/SpeakToUs.tsx'

/**
 * Logo, main navigation (the services in a disclosure menu), the language switcher and, on
 * small screens, a menu button. Without JavaScript the navigation is a plain list of links; the
 * menu behaviour lives in src/client/menu.ts.
 */
export function Header({ page }: { page: Page }) {
  const { t, url, route, collections } = page
  const blog = page.site.singleLocaleSections.blog
  const blogLocale = blog && blog !== route.locale ? page.site.locales.find((l) => l.code === blog) : undefined
  const services = collections.services[route.locale] ?? []
  const items = [
    ...collections.doctors[route.locale]!.map((d) => ({ href: url(d.path), label: d.data.title, hrefLang: undefined })),
    ...(blog ? [{ href: url('/blog/', blog), label: t('nav.blog'), hrefLang: blogLocale?.hreflang }] : []),
    { href: url('/contact/'), label: t('nav.contact'), hrefLang: undefined },
  ]
  const current = (href: string) => (href === route.url ? 'page' : route.url.startsWith(href) && href !== url('/') ? 'true' : undefined)
  return (
    <header className="site-header" id="top">
      {/* First in the banner landmark, so that no content sits outside a landmark. */}
      <a className="skip-link" href="#main">{page.t('nav.skip')}</a>
      <div className="site-header__top">
        <div className="wrap site-header__top-inner">
          <a className="site-header__phone" href={`tel:${page.site.phone.replace(/\s/g, '')}`}>
            <Icon name="phone" /><span className="visually-hidden">{t('contact.phone')}: </span>{page.site.phone}
          </a>
          <LanguageSwitcher page={page} />
        </div>
      </div>
      <div className="wrap site-header__bar">
        <a className="brand" href={url('/')} aria-current={route.url === url('/') ? 'page' : undefined}>
          <Logo />
          <span className="brand__name">{page.site.name}</span>
        </a>
        <button className="menu-button" type="button" aria-expanded="false" aria-controls="site-nav">
          <Icon name="menu" />{t('nav.menu')}
        </button>
        <nav id="site-nav" className="site-nav" aria-label={t('nav.label')}>
          <ul className="site-nav__list">
            <li className="site-nav__item site-nav__item--has-menu">
              <a href={url('/services/')} aria-current={current(url('/services/'))}>{t('nav.services')}</a>
              <button className="submenu-button" type="button" aria-expanded="false" aria-controls="nav-services">
                <Icon name="chevronDown" /><span className="visually-hidden">{t('nav.servicesMenu')}</span>
              </button>
              <ul id="nav-services" className="submenu">
                {services.map((s) => (
                  <li key={s.id}><a href={url(s.path)} aria-current={current(url(s.path))}>{s.data.title}</a></li>
                ))}
              </ul>
            </li>
            {items.map((item) => (
              <li key={item.href} className="site-nav__item">
                <a href={item.href} aria-current={current(item.href)} hrefLang={item.hrefLang}>{item.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="site-header__cta"><SpeakToUs page={page} variant="small" /></p>
      </div>
    </header>
  )
}
