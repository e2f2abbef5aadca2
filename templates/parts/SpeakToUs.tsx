import type { Page } from '../../src/page/index.ts'

/** The "speak to us" button: to the contact page. */
export function SpeakToUs({ page, variant }: { page: Page; variant?: 'light' | 'small' | 'ghost' }) {
  const className = variant ? `button button--${variant}` : 'button'
  return <a className={className} href={page.url('/contact/')}>{page.t('cta.speak')}</a>
}
