import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { ReadMore } from '../parts/ReadMore.tsx'
import { Layout } from '../Layout.tsx'
import { cardTitleId } from '../parts/card-title.ts'

/** One page of the article list, newest first, with links to the other pages. */
export function BlogIndex({ page }: { page: Page }) {
  const { route, collections, t } = page
  const articles = (route.page?.items ?? []).map((id) => collections.byId.get(id)!)
  const pageUrl = (n: number) => page.url(n === 1 ? '/blog/' : `/blog/page/${n}/`)
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} lead={page.doc!.data.description} />
      <div className="wrap">
        <div className="prose">{page.markdown()}</div>
        <ul className="article-list">
          {articles.map((a) => (
            <li key={a.id}>
              <article className="card article-card" aria-labelledby={cardTitleId(a.path)}>
                <p className="meta"><time dateTime={a.data.date}>{page.date(a.data.date!)}</time></p>
                <h2 className="card__title" id={cardTitleId(a.path)}><a href={page.url(a.path)}>{a.data.title}</a></h2>
                <p>{a.data.description}</p>
                <ReadMore page={page} href={page.url(a.path)} title={a.data.title} />
              </article>
            </li>
          ))}
        </ul>
        {route.page && route.page.count > 1 && (
          <nav className="pagination" aria-label={t('pagination.label')}>
            {route.page.number > 1 && <a className="button button--ghost" href={pageUrl(route.page.number - 1)} rel="prev">{t('pagination.previous')}</a>}
            <span aria-current="page">{t('pagination.page', { number: route.page.number })}</span>
            {route.page.number < route.page.count && <a className="button button--ghost" href={pageUrl(route.page.number + 1)} rel="next">{t('pagination.next')}</a>}
          </nav>
        )}
      </div>
    </Layout>
  )
}
