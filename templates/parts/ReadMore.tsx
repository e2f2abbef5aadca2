import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/** "Read more" with the target's title for screen readers, so every such link is distinct. */
export function ReadMore({ href, title, page }: { href: string; title: string; page: Page }) {
  return (
    <a className="read-more" href={href}>
      {page.t('cta.readMore')}<span className="visually-hidden">: {title}</span>
      <Icon name="arrow" />
    </a>
  )
}
