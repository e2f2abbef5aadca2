import type { Page } from '../../src/page.ts'
import { questionsOf } from '../../src/markdown.ts'
import { Banner, CallToAction, Disclaimer, Reviewed, Sidebar } from '../parts/Blocks.tsx'
import { Layout } from '../Layout.tsx'

/** A service: its sections as tabs (all visible without JavaScript), FAQs as an accordion. */
export function Service({ page }: { page: Page }) {
  const doc = page.doc!
  const { lead, sections } = page.sections()
  const others = (page.collections.services[page.locale.code] ?? []).filter((s) => s.id !== doc.id).slice(0, 5)
  const articles = page.collections.linkedFrom(page.route.alternates[page.site.defaultLocale] ?? '').slice(0, 5)
  return (
    <Layout page={page}>
      <Banner title={doc.data.title} lead={doc.data.summary} />
      <div className="wrap with-sidebar">
        <div className="content">
          <Reviewed page={page} doc={doc} />
          {page.markdown(lead)}
          <div className="tabs" data-island="tabs">
            <ul className="tabs__list">
              {sections.map((s) => <li key={s.id}><a href={`#${s.id}`}>{s.title}</a></li>)}
            </ul>
            {sections.map((s) => {
              const questions = questionsOf(s)
              return (
                <section key={s.id} id={s.id} className="tabs__panel prose" aria-labelledby={`${s.id}-title`}>
                  <h2 id={`${s.id}-title`}>{s.title}</h2>
                  {questions ? (
                    <div className="accordion" data-island="accordion">
                      {questions.map((q, i) => (
                        <div key={i} className="accordion__item">
                          <h3 className="accordion__question">{q.question}</h3>
                          <div className="accordion__answer">{page.markdown(q.answer)}</div>
                        </div>
                      ))}
                    </div>
                  ) : page.markdown(s.nodes)}
                </section>
              )
            })}
          </div>
          <Disclaimer page={page} />
        </div>
        <Sidebar page={page} services={others} articles={articles} />
      </div>
      <CallToAction page={page} />
    </Layout>
  )
}
