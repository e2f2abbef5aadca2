import type { Page } from '../../src/page/index.ts'
import type { Doc } from '../../src/types.ts'
import { SpeakToUs } from './SpeakToUs.tsx'

/** Related services and articles beside an article or a service, and a call to action. */
export function Sidebar({ page, services, articles }: { page: Page; services: Doc[]; articles: Doc[] }) {
  return (
    <aside className="sidebar" aria-label={page.t('sidebar.label')}>
      {services.length > 0 && (
        <nav className="sidebar__block" aria-labelledby="sidebar-services">
          <h2 id="sidebar-services">{page.t('sidebar.services')}</h2>
          <ul>{services.map((d) => <li key={d.id}><a href={page.url(d.path)}>{d.data.title}</a></li>)}</ul>
        </nav>
      )}
      {articles.length > 0 && (
        <nav className="sidebar__block" aria-labelledby="sidebar-articles">
          <h2 id="sidebar-articles">{page.t('sidebar.articles')}</h2>
          <ul>
            {articles.map((d) => {
              const other = d.locale !== page.locale.code ? page.site.locales.find((l) => l.code === d.locale) : undefined
              return <li key={d.id}><a href={page.url(d.path, d.locale)} hrefLang={other?.hreflang} lang={other?.lang}>{d.data.title}</a></li>
            })}
          </ul>
        </nav>
      )}
      <div className="sidebar__cta">
        <p>{page.t('cta.text')}</p>
        <SpeakToUs page={page} />
      </div>
    </aside>
  )
}
