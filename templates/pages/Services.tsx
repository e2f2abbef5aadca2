import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { CallToAction } from '../parts/CallToAction.tsx'
import { ServiceCard } from '../parts/ServiceCard.tsx'
import { Layout } from '../Layout.tsx'

/** The services overview: the page's text, then a card for each service. */
export function Services({ page }: { page: Page }) {
  const services = page.collections.services[page.locale.code] ?? []
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} lead={page.doc!.data.description} />
      <div className="wrap"><div className="prose">{page.markdown()}</div></div>
      <div className="wrap grid grid--cards">
        {services.map((s) => <ServiceCard key={s.id} page={page} doc={s} />)}
      </div>
      <CallToAction page={page} />
    </Layout>
  )
}
