import type { Page } from '../../src/page.ts'
import { Banner, CallToAction, ServiceCard } from '../parts/Blocks.tsx'
import { Layout } from '../Layout.tsx'

export function Services({ page }: { page: Page }) {
  const services = page.collections.services[page.locale.code] ?? []
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} />
      <div className="wrap prose">{page.markdown()}</div>
      <div className="wrap grid grid--cards">
        {services.map((s) => <ServiceCard key={s.id} page={page} doc={s} />)}
      </div>
      <CallToAction page={page} />
    </Layout>
  )
}
