import type { Page } from '../../src/page.ts'

/** The enquiry form's markup and labels; it posts natively and lands on the thank-you page. */
export function ContactForm({ page }: { page: Page }) {
  const { t, site } = page
  const action = site.contactForm.endpoint || '/api/enquiry'
  return (
    <form className="contact-form" method="post" action={action} data-island="contact-form">
      <h2>{t('form.title')}</h2>
      <input type="hidden" name="locale" value={page.locale.code} />
      <input type="hidden" name="redirect" value={page.url('/thank-you/')} />
      <p className="field">
        <label htmlFor="f-name">{t('form.name')}</label>
        <input id="f-name" name="name" autoComplete="name" required maxLength={100} />
      </p>
      <p className="field">
        <label htmlFor="f-email">{t('form.email')}</label>
        <input id="f-email" name="email" type="email" autoComplete="email" />
      </p>
      <p className="field">
        <label htmlFor="f-phone">{t('form.phone')}</label>
        <input id="f-phone" name="phone" type="tel" autoComplete="tel" />
      </p>
      <p className="field">
        <label htmlFor="f-message">{t('form.message')}</label>
        <textarea id="f-message" name="message" rows={5} maxLength={2000} aria-describedby="f-message-hint" />
        <span id="f-message-hint" className="hint">{t('form.messageHint')}</span>
      </p>
      <p className="notice">{t('form.notice', { legalName: site.legalName })} <a href={page.url('/privacy/')}>{t('footer.privacy')}</a></p>
      <p className="field field--check">
        <input id="f-consent" name="consent" type="checkbox" required />
        <label htmlFor="f-consent">{t('form.consent')}</label>
      </p>
      <p><button className="button" type="submit">{t('form.submit')}</button></p>
    </form>
  )
}
