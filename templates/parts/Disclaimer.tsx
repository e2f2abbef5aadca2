import type { Page } from '../../src/page/index.ts'

/** The standard medical disclaimer under health information. */
export function Disclaimer({ page }: { page: Page }) {
  return <p className="disclaimer">{page.t('disclaimer.medical')}</p>
}
