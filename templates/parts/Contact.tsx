import type { Page } from '../../src/page.ts'

/** The clinic's address as a postal address block. */
export function Address({ page }: { page: Page }) {
  const a = page.site.address
  return (
    <address className="address">
      {page.site.name}<br />
      {a.building}, {a.unit}<br />
      {a.street}<br />
      {a.city} {a.postalCode}
    </address>
  )
}

const DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const

/** Opening hours for each day of the week from the site configuration; the browser adds "open now". */
export function OpeningHours({ page }: { page: Page }) {
  const { t, site } = page
  return (
    <div className="opening-hours" data-island="opening-hours" data-hours={JSON.stringify(site.openingHours)}>
      <table>
        <caption>{t('hours.title')}</caption>
        <tbody>
          {DAYS.map((day) => {
            const slot = site.openingHours.find((h) => (h.days as string[]).includes(day))
            return (
              <tr key={day}>
                <th scope="row">{t(`days.${day}`)}</th>
                <td>{slot ? `${slot.opens} – ${slot.closes}` : t('hours.closed')}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {site.closedOnPublicHolidays && <p className="note">{t('hours.publicHolidays')}</p>}
      <p className="opening-hours__now" aria-live="polite" hidden />
    </div>
  )
}

/** A wa.me link with a neutral message in the page's language. */
export function WhatsAppButton({ page }: { page: Page }) {
  const href = `https://wa.me/${page.site.whatsapp}?text=${encodeURIComponent(page.t('whatsapp.prefill'))}`
  return <a className="button button--whatsapp" href={href} rel="noopener" target="_blank">{page.t('whatsapp.label')}<span className="visually-hidden"> {page.t('nav.newTab')}</span></a>
}

/** Phone, e-mail and WhatsApp. */
export function ContactLines({ page }: { page: Page }) {
  const { site, t } = page
  return (
    <ul className="contact-lines">
      <li>{t('contact.phone')}: <a href={`tel:${site.phone.replace(/\s/g, '')}`}>{site.phone}</a></li>
      <li>{t('contact.email')}: <a href={`mailto:${site.email}`}>{site.email}</a></li>
    </ul>
  )
}

/** A static map preview: the third-party map opens only when the visitor asks. */
export function MapPreview({ page }: { page: Page }) {
  const { t, site } = page
  return (
    <figure className="map" data-island="map" data-embed={site.map.embedUrl}>
      <div className="map__preview" aria-hidden="true">
        <svg viewBox="0 0 320 180" width="320" height="180">
          <rect width="320" height="180" fill="#e9efe9" />
          <path d="M0 120 L320 80 M60 0 L110 180 M200 0 L230 180" stroke="#fff" strokeWidth="10" />
          <circle cx="160" cy="98" r="9" fill="#7a4e3a" />
        </svg>
      </div>
      <figcaption>
        <a href={site.map.linkUrl} rel="noopener" target="_blank">{t('map.open')}<span className="visually-hidden"> {t('nav.newTab')}</span></a>
      </figcaption>
    </figure>
  )
}
