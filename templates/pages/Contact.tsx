import type { Page } from '../../src/page/index.ts'
import { Address } from '../parts/Address.tsx'
import { Banner } from '../parts/Banner.tsx'
import { ContactForm } from '../parts/ContactForm.tsx'
import { ContactLines } from '../parts/ContactLines.tsx'
import { Map } from '../parts/Map.tsx'
import { OpeningHours } from '../parts/OpeningHours.tsx'
import { WhatsAppButton } from '../parts/WhatsAppButton.tsx'
import { Layout } from '../Layout.tsx'

/** The contact page: the enquiry form beside the address, numbers, opening hours and map. */
export function Contact({ page }: { page: Page }) {
  const { t } = page
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} lead={page.doc!.data.description} />
      <div className="wrap with-sidebar with-sidebar--contact">
        <div className="content">
          <div className="prose">{page.markdown()}</div>
          <div className="panel"><ContactForm page={page} /></div>
        </div>
        <aside className="sidebar" aria-labelledby="contact-details">
          <div className="sidebar__block">
            <h2 id="contact-details">{t('contact.details')}</h2>
            <Address page={page} />
            <ContactLines page={page} />
            <WhatsAppButton page={page} />
          </div>
          <div className="sidebar__block">
            <OpeningHours page={page} />
          </div>
          <Map page={page} />
        </aside>
      </div>
    </Layout>
  )
}
