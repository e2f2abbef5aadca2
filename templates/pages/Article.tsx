import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { CallToAction } from '../parts/CallToAction.tsx'
import { Disclaimer } from '../parts/Disclaimer.tsx'
import { Reviewed } from '../parts/Reviewed.tsx'
import { Sidebar } from '../parts/Sidebar.tsx'
import { Layout } from '../Layout.tsx'

/** A blog article: byline, body, disclaimer, and the services it links to in the sidebar. */
export function Article({ page }: { page: Page }) {
  const doc = page.doc!
  const author = page.doctor(doc.data.author!)
  const services = (page.collections.services[page.locale.code] ?? []).filter((s) => page.collections.linksOf(doc.id).has(page.url(s.path)))
  const articles = page.collections.relatedArticles(doc, 4)
  return (
    <Layout page={page}>
      <Banner title={doc.data.title} lead={doc.data.description}>
        <p className="meta">
          {author && <>{page.t('article.by')} <a href={page.url(author.path)}>{author.data.title}</a> · </>}
          <time dateTime={doc.data.date}>{page.date(doc.data.date!)}</time>
        </p>
        <Reviewed page={page} doc={doc} />
      </Banner>
      <div className="wrap with-sidebar">
        <article className="content prose">
          {page.markdown()}
          <p className="tags">{page.t('article.tags')}: {doc.data.tags!.map((tag) => <span key={tag} className="tag">{tag}</span>)}</p>
          <Disclaimer page={page} />
        </article>
        <Sidebar page={page} services={services} articles={articles} />
      </div>
      <CallToAction page={page} />
    </Layout>
  )
}
