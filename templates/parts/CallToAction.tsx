import type { Page } from '../../src/page/index.ts'
import { SpeakToUs } from './SpeakToUs.tsx'
import { WhatsAppButton } from './WhatsAppButton.tsx'

/** The closing call to action of most pages. */
export function CallToAction({ page }: { page: Page }) {
  return (
    <section className="cta" aria-labelledby="cta-title">
      <div className="wrap cta__inner">
        <div>
          <h2 id="cta-title">{page.t('cta.title')}</h2>
          <p>{page.t('cta.text')}</p>
        </div>
        <p className="cta__actions"><SpeakToUs page={page} variant="light" /> <WhatsAppButton page={page} /></p>
      </div>
    </section>
  )
}
