import type { Page } from '../../src/page.ts'
import { Banner } from '../parts/Blocks.tsx'
import { Address, ContactLines, MapPreview, OpeningHours, WhatsAppButton } from '../parts/Contact.tsx'
import { ContactForm } from '../parts/ContactForm.tsx'
import { Layout } from '../Layout.tsx'

export function Contact({ page }: { page: Page }) {
  const { t } = page
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} />
      <div className="wrap with-sidebar">
        <div className="content">
          <div className="prose">{page.markdown()}</div>
          <ContactForm page={page} />
        </div>
        <aside className="sidebar" aria-label={t('contact.details')}>
          <h2>{t('contact.details')}</h2>
          <Address page={page} />
          <ContactLines page={page} />
          <WhatsAppButton page={page} />
          <OpeningHours page={page} />
          <MapPreview page={page} />
        </aside>
      </div>
    </Layout>
  )
}
