import type { ReactNode } from 'react'
import type { Page } from '../../src/page/index.ts'

export interface Tab { id: string; title: string; content: ReactNode }

/**
 * The sections of a service page. The static HTML is a list of links to the sections followed
 * by every section; the tabs island turns the list into a WAI-ARIA tab list and shows one
 * section at a time.
 */
export function ServiceTabs({ page, tabs }: { page: Page; tabs: Tab[] }) {
  return (
    <div className="tabs" data-island="tabs">
      <nav className="tabs__index" aria-label={page.t('tabs.label')}>
        <ul className="tabs__list">
          {tabs.map((tab) => <li key={tab.id}><a href={`#${tab.id}`}>{tab.title}</a></li>)}
        </ul>
      </nav>
      {tabs.map((tab) => (
        <section key={tab.id} id={tab.id} className="tabs__panel prose" aria-labelledby={`${tab.id}-title`}>
          <h2 id={`${tab.id}-title`} className="tabs__title">{tab.title}</h2>
          {tab.content}
        </section>
      ))}
    </div>
  )
}
