import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/** Phone and e-mail, as links. */
export function ContactLines({ page }: { page: Page }) {
  const { site, t } = page
  return (
    <ul className="contact-lines">
      <li><Icon name="phone" /><span className="visually-hidden">{t('contact.phone')}: </span><a href={`tel:${site.phone.replace(/\s/g, '')}`}>{site.phone}</a></li>
      <li><Icon name="mail" /><span className="visually-hidden">{t('contact.email')}: </span><a href={`mailto:${site.email}`}>{site.email}</a></li>
    </ul>
  )
}
