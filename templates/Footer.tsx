import type { Page } from '../src/page/index.ts'
import { Address } from './parts/Address.tsx'
import { ContactLines } from './parts/ContactLines.tsx'
import { Logo } from './parts/Logo.tsx'
import { OpeningHours } from './parts/OpeningHours.tsx'
import { ScrollToTop } from './parts/ScrollToTop.tsx'
import { WhatsAppButton } from './parts/WhatsAppButton.tsx'

/** Contact details, opening hours, the services, the legal name and "back to top". */
export function Footer({ page }: { page: Page }) {
  const { t, site, url, collections, locale } = page
  const services = collections.services[locale.code] ?? []
  return (
    <footer className="site-footer">
      <div className="wrap site-footer__grid">
        <section className="site-footer__visit" aria-labelledby="footer-visit">
          <p className="site-footer__brand"><Logo /><span>{site.name}</span></p>
          <h2 id="footer-visit" className="visually-hidden">{t('footer.visit')}</h2>
          <Address page={page} />
          <ContactLines page={page} />
          <WhatsAppButton page={page} />
        </section>
        <section aria-labelledby="footer-hours">
          <h2 id="footer-hours">{t('hours.title')}</h2>
          <OpeningHours page={page} caption={false} />
        </section>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services">{t('nav.services')}</h2>
          <ul className="site-footer__links">
            {services.map((s) => <li key={s.id}><a href={url(s.path)}>{s.data.title}</a></li>)}
          </ul>
        </nav>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links">{t('footer.links')}</h2>
          <ul className="site-footer__links">
            {collections.doctors[locale.code]!.map((d) => <li key={d.id}><a href={url(d.path)}>{d.data.title}</a></li>)}
            <li><a href={url('/contact/')}>{t('nav.contact')}</a></li>
            <li><a href={url('/privacy/')}>{t('footer.privacy')}</a></li>
          </ul>
        </nav>
      </div>
      <div className="wrap site-footer__legal">
        <p>{t('footer.legal', { legalName: site.legalName, uen: site.uen })} {t('footer.emergency')}</p>
        <ScrollToTop page={page} />
      </div>
    </footer>
  )
}
