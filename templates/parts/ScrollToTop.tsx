import type { Page } from '../../src/page.ts'
import { Icon } from './Icon.tsx'

/**
 * "Back to top": a plain link to the top of the page; the scroll-to-top island turns it into a
 * floating button once the visitor has scrolled a screen or more.
 */
export function ScrollToTop({ page }: { page: Page }) {
  return (
    <a className="to-top" href="#top" data-island="scroll-to-top">
      <Icon name="arrowUp" /><span className="to-top__label">{page.t('nav.toTop')}</span>
    </a>
  )
}
