import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/**
 * "Back to top": a plain link to the top of the page in the footer. With scripts on it is a
 * floating button (styled under `.js`), which the scroll-to-top island shows once the visitor has
 * scrolled a screen or more.
 */
export function ScrollToTop({ page }: { page: Page }) {
  return (
    <a className="to-top" href="#top" data-island="scroll-to-top">
      <Icon name="arrowUp" /><span className="to-top__label">{page.t('nav.toTop')}</span>
    </a>
  )
}
