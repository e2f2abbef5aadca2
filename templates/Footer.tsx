import type { Page } from '../src/page.ts'
import { Address, ContactLines, OpeningHours, WhatsAppButton } from './parts/Contact.tsx'

/** Contact details, hours, legal name and the scroll-to-top link. */
export function Footer({ page }: { page: Page }) {
  const { t, site, url } = page
  return (
    <footer className="site-footer">
      <div className="wrap site-footer__grid">
        <section aria-labelledby="footer-visit">
          <h2 id="footer-visit">{t('footer.visit')}</h2>
          <Address page={page} />
          <ContactLines page={page} />
          <WhatsAppButton page={page} />
        </section>
        <section aria-labelledby="footer-hours">
          <h2 id="footer-hours">{t('hours.title')}</h2>
          <OpeningHours page={page} />
        </section>
        <section aria-labelledby="footer-links">
          <h2 id="footer-links">{t('footer.links')}</h2>
          <ul>
            <li><a href={url('/services/')}>{t('nav.services')}</a></li>
            <li><a href={url('/contact/')}>{t('nav.contact')}</a></li>
            <li><a href={url('/privacy/')}>{t('footer.privacy')}</a></li>
          </ul>
        </section>
      </div>
      <div className="wrap site-footer__legal">
        <p>{t('footer.legal', { legalName: site.legalName, uen: site.uen })}</p>
        <p>{t('footer.emergency')}</p>
        <a className="to-top" href="#top">{t('nav.toTop')}</a>
      </div>
    </footer>
  )
}
