import type { ReactNode } from 'react'
import { noticeVersion } from '../../src/enquiry/notice.ts'
import type { Page } from '../../src/page/index.ts'
import {
  ANY_DOCTOR, CONTACT_METHODS, ERROR_CODES, HONEYPOT_FIELD, LIMITS, LOCAL_ENQUIRY_PATH, NOT_SURE,
} from '../../src/shared/enquiry.ts'
import { WhatsAppButton } from './WhatsAppButton.tsx'

/**
 * The enquiry form. Without JavaScript it posts natively (constraint attributes check it first)
 * and the visitor lands on the thank-you page of their language; the `contact-form` island
 * (src/client/islands/contact-form.ts) adds the shared validator's messages, a draft kept while
 * typing, submission with fetch and the messages for failures.
 */
export function ContactForm({ page }: { page: Page }) {
  const { t, site } = page
  const { delivery, endpoint, formName } = site.contactForm
  const thanks = page.url('/thank-you/')
  const action = delivery === 'endpoint' ? endpoint : delivery === 'netlify' ? thanks : LOCAL_ENQUIRY_PATH
  const notice = {
    title: t('form.notice.title'),
    text: t('form.notice.text', { legalName: site.legalName }),
    consent: t('form.consent'),
  }
  const version = noticeVersion([notice.title, notice.text.replace('{dpo}', site.dataProtectionOfficer), notice.consent])
  const netlify = delivery === 'netlify' ? { name: formName, 'data-netlify': 'true', 'data-netlify-honeypot': HONEYPOT_FIELD } : {}
  const optional = <span className="field__optional"> {t('form.optional')}</span>

  return (
    <form className="contact-form" method="post" action={action} aria-labelledby="contact-form-title"
      data-island="contact-form" data-delivery={delivery} data-thanks={thanks} data-messages={JSON.stringify(islandMessages(page))} {...netlify}>
      <h2 id="contact-form-title">{t('form.title')}</h2>
      <p className="hint">{t('form.intro')}</p>
      <div className="error-summary" hidden>
        <h3 className="error-summary__title">{t('form.errors.summary')}</h3>
        <ul className="error-summary__list" />
      </div>

      {delivery === 'netlify' && <input type="hidden" name="form-name" value={formName} />}
      {delivery === 'endpoint' && <input type="hidden" name="_next" value={site.baseUrl + thanks} />}
      <input type="hidden" name="locale" value={page.locale.code} />
      <input type="hidden" name="page" value={page.route.url} />
      <input type="hidden" name="notice" value={version} />
      <p className="contact-form__trap" aria-hidden="true">
        <label htmlFor="f-bot-field">{t('form.honeypot')}</label>
        <input id="f-bot-field" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
      </p>

      <Field id="f-name" label={t('form.name')}>
        <input id="f-name" name="name" autoComplete="name" required maxLength={LIMITS.name} />
      </Field>
      <Field id="f-email" label={t('form.email')}>
        <input id="f-email" name="email" type="email" autoComplete="email" maxLength={LIMITS.email} spellCheck={false} />
      </Field>
      <Field id="f-phone" label={t('form.phone')} hint={t('form.phoneHint')}>
        <input id="f-phone" name="phone" type="tel" autoComplete="tel" maxLength={LIMITS.phone} pattern={PHONE_PATTERN} aria-describedby="f-phone-hint" />
      </Field>
      <fieldset className="field field--choices" id="f-contactMethod">
        <legend>{t('form.contactMethod')}</legend>
        <p className="field__error" id="f-contactMethod-error" hidden />
        {CONTACT_METHODS.map((method) => (
          <p className="field--check" key={method}>
            <input id={`f-contactMethod-${method}`} name="contactMethod" type="radio" value={method} required />
            <label htmlFor={`f-contactMethod-${method}`}>{t(`form.method.${method}`)}</label>
          </p>
        ))}
      </fieldset>
      <Field id="f-procedure" label={t('form.procedure')}>
        <select id="f-procedure" name="procedure" required defaultValue="">
          <option value="" disabled>{t('form.procedureChoose')}</option>
          {(page.collections.services[page.locale.code] ?? []).map((service) => (
            <option key={service.path} value={slugOf(service.path)}>{service.data.title}</option>
          ))}
          <option value={NOT_SURE}>{t('form.procedureNotSure')}</option>
        </select>
      </Field>
      <Field id="f-doctor" label={t('form.doctor')} after={optional}>
        <select id="f-doctor" name="doctor" defaultValue={ANY_DOCTOR}>
          <option value={ANY_DOCTOR}>{t('form.doctorAny')}</option>
          {site.doctors.map((d) => <option key={d.slug} value={d.slug}>{page.doctor(d.slug)?.data.name ?? d.slug}</option>)}
        </select>
      </Field>
      <Field id="f-message" label={t('form.message')} after={optional} hint={t('form.messageHint')}>
        <textarea id="f-message" name="message" rows={5} maxLength={LIMITS.message} aria-describedby="f-message-hint" />
      </Field>

      <section className="notice" aria-labelledby="f-notice-title">
        <h3 id="f-notice-title">{notice.title}</h3>
        <p id="f-notice-text">
          {withLink(notice.text, '{dpo}', <a href={`mailto:${site.dataProtectionOfficer}`}>{site.dataProtectionOfficer}</a>)}
          {' '}<a href={page.url('/privacy/')}>{t('form.notice.link')}</a>
        </p>
      </section>
      <div className="field field--check">
        <input id="f-consent" name="consent" type="checkbox" value="yes" required />
        <label htmlFor="f-consent">{notice.consent}</label>
        <p className="field__error" id="f-consent-error" hidden />
      </div>
      <fieldset className="field field--choices" aria-describedby="f-marketing-hint">
        <legend>{t('form.marketing.legend')}</legend>
        <p className="hint" id="f-marketing-hint">{t('form.marketing.hint')}</p>
        {(['email', 'sms', 'phone'] as const).map((channel) => {
          const name = `marketing${channel[0]!.toUpperCase()}${channel.slice(1)}`
          return (
            <p className="field--check" key={channel}>
              <input id={`f-${name}`} name={name} type="checkbox" value="yes" />
              <label htmlFor={`f-${name}`}>{t(`form.marketing.${channel}`)}</label>
            </p>
          )
        })}
      </fieldset>

      <p className="contact-form__actions">
        <button className="button" type="submit">{t('form.submit')}</button>
      </p>
      <p className="contact-form__progress" role="status" />
      <div className="contact-form__problem" role="alert" tabIndex={-1} hidden>
        <p className="contact-form__problem-text" />
        <p className="contact-form__alternatives">
          <button className="button" type="button" data-retry="">{t('form.status.retry')}</button>{' '}
          <WhatsAppButton page={page} />{' '}
          <a className="button button--secondary" href={`tel:${site.phone.replace(/\s/g, '')}`}>{t('form.status.call', { phone: site.phone })}</a>
        </p>
      </div>
    </form>
  )
}

/**
 * A loose native check for phone numbers (digits, spaces, brackets, dots, dashes, an optional
 * leading +); the shared validator applies the real rule. Escaped for the `v` flag browsers use.
 */
const PHONE_PATTERN = '\\+?[0-9 \\(\\)\\.\\-]{8,20}'

/** A labelled field: label, optional hint, the place for its error message, then the control. */
function Field({ id, label, after, hint, children }: { id: string; label: string; after?: ReactNode; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}{after}</label>
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      <p className="field__error" id={`${id}-error`} hidden />
      {children}
    </div>
  )
}

/** '/services/ear/' -> 'ear' */
const slugOf = (path: string) => path.split('/').filter(Boolean).at(-1)!

/** Puts a link where `token` stands in a translated sentence. */
function withLink(text: string, token: string, link: ReactNode): ReactNode {
  const [before, after = ''] = text.split(token)
  return text.includes(token) ? <>{before}{link}{after}</> : text
}

/** The messages the island shows, in the page's language (the validator's and the delivery's). */
function islandMessages(page: Page): Record<string, string> {
  const keys = [
    ...ERROR_CODES.map((code) => `form.errors.${code}`),
    'form.errors.summary', 'form.submit', 'form.sending',
    ...['sending', 'offline', 'network', 'rejected', 'failed'].map((k) => `form.status.${k}`),
  ]
  return Object.fromEntries(keys.map((key) => [key, page.t(key)]))
}
