import type { Page } from '../../src/page/index.ts'
import { questionsOf } from '../../src/markdown/to-react.ts'
import { Accordion } from '../parts/Accordion.tsx'
import { Banner } from '../parts/Banner.tsx'
import { CallToAction } from '../parts/CallToAction.tsx'
import { Disclaimer } from '../parts/Disclaimer.tsx'
import { Reviewed } from '../parts/Reviewed.tsx'
import { ServiceTabs } from '../parts/ServiceTabs.tsx'
import { Sidebar } from '../parts/Sidebar.tsx'
import { Layout } from '../Layout.tsx'

/** A service: its sections as tabs (all visible without JavaScript), FAQs as an accordion. */
export function Service({ page }: { page: Page }) {
  const doc = page.doc!
  const { lead, sections } = page.sections()
  const others = (page.collections.services[page.locale.code] ?? []).filter((s) => s.id !== doc.id).slice(0, 5)
  const articles = page.collections.linkedFrom(page.route.alternates[page.site.defaultLocale] ?? '').slice(0, 5)
  const tabs = sections.map((s) => {
    const questions = questionsOf(s)
    const content = questions
      ? <Accordion id={`${s.id}-faq`} items={questions.map((q) => ({ question: q.question, answer: page.markdown(q.answer) }))} />
      : page.markdown(s.nodes)
    return { id: s.id, title: s.title, content }
  })
  return (
    <Layout page={page}>
      <Banner title={doc.data.title} lead={doc.data.summary}>
        <Reviewed page={page} doc={doc} />
      </Banner>
      <div className="wrap with-sidebar">
        <div className="content">
          {lead.length > 0 && <div className="prose">{page.markdown(lead)}</div>}
          <ServiceTabs page={page} tabs={tabs} />
          <Disclaimer page={page} />
        </div>
        <Sidebar page={page} services={others} articles={articles} />
      </div>
      <CallToAction page={page} />
    </Layout>
  )
}
