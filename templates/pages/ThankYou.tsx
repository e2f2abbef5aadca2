import type { Page } from '../../src/page.ts'
import { Banner } from '../parts/Blocks.tsx'
import { WhatsAppButton } from '../parts/Contact.tsx'
import { Layout } from '../Layout.tsx'

export function ThankYou({ page }: { page: Page }) {
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} />
      <div className="wrap prose">
        {page.markdown()}
        <p><a className="button" href={page.url('/')}>{page.t('nav.backHome')}</a> <WhatsAppButton page={page} /></p>
      </div>
    </Layout>
  )
}
