import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { WhatsAppButton } from '../parts/WhatsAppButton.tsx'
import { Layout } from '../Layout.tsx'

export function ThankYou({ page }: { page: Page }) {
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} />
      <div className="wrap">
        <div className="prose">
          {page.markdown()}
          <p className="actions"><a className="button" href={page.url('/')}>{page.t('nav.backHome')}</a> <WhatsAppButton page={page} /></p>
        </div>
      </div>
    </Layout>
  )
}
