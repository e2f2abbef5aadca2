/**
 * The page a visitor without JavaScript sees when their enquiry was not taken: in their language,
 * listing what to correct and echoing what they typed (in read-only text boxes, easy to copy), so
 * nothing is lost. React escapes every value: what a visitor typed is only ever shown as text.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { translator } from '../content/messages.ts'
import { localeUrl } from '../shared/urls.ts'
import type { LocaleConfig, Messages, SiteConfig } from '../types.ts'

export interface ResultPage {
  site: SiteConfig
  locale: LocaleConfig
  messages: Messages
  /** Why nothing was stored: field messages, or one sentence. */
  problems: string[]
  /** Lead sentence above the problems. */
  lead: string
  /** The visitor's own words, label -> text. */
  entries: [string, string][]
  /** The page the form was on (a path on this site). */
  formUrl?: string
}

export function renderResultPage(p: ResultPage): string {
  const t = translator(p.messages, () => {})
  const title = t('form.result.title')
  const whatsapp = `https://wa.me/${p.site.whatsapp}?text=${encodeURIComponent(t('whatsapp.prefill'))}`
  const html = renderToStaticMarkup(
    <html lang={p.locale.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} | ${p.site.name}`}</title>
      </head>
      <body>
        <main>
          <h1>{title}</h1>
          <p>{p.lead}</p>
          <ul>{p.problems.map((text, i) => <li key={i}>{text}</li>)}</ul>
          <p>{t('form.result.back')}</p>
          <p><a href={p.formUrl ?? localeUrl(p.locale.code, '/contact/', p.site.defaultLocale)}>{t('form.result.form')}</a></p>
          <ul>
            <li><a href={whatsapp}>{t('whatsapp.label')}</a></li>
            <li><a href={`tel:${p.site.phone.replace(/\s/g, '')}`}>{t('form.status.call', { phone: p.site.phone })}</a></li>
          </ul>
          {p.entries.length > 0 && (
            <section aria-labelledby="entries">
              <h2 id="entries">{t('form.result.entries')}</h2>
              {p.entries.map(([label, text], i) => (
                <p key={i}>
                  <label htmlFor={`entry-${i}`}>{label}</label><br />
                  <textarea id={`entry-${i}`} readOnly cols={60} rows={Math.min(12, text.split('\n').length + 1)} defaultValue={text} />
                </p>
              ))}
            </section>
          )}
        </main>
      </body>
    </html>,
  )
  return `<!doctype html>${html}`
}
