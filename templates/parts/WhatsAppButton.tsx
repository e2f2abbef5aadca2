import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/** A wa.me link with a neutral message in the page's language; it opens in a new tab. */
export function WhatsAppButton({ page }: { page: Page }) {
  const href = `https://wa.me/${page.site.whatsapp}?text=${encodeURIComponent(page.t('whatsapp.prefill'))}`
  return (
    <a className="button button--whatsapp" href={href} rel="noopener" target="_blank">
      <Icon name="whatsapp" />{page.t('whatsapp.label')}<span className="visually-hidden"> {page.t('nav.newTab')}</span>
    </a>
  )
}
