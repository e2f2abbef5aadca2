import type { ReactNode } from 'react'
import type { ImageSet } from '../../src/picture.ts'
import { HERO_SIZES, Picture } from './Picture.tsx'
import type { Page } from '../../src/page.ts'
import type { Doc } from '../../src/types.ts'
import { WhatsAppButton } from './Contact.tsx'

/** The page hero: the page's one h1 and an optional lead sentence. */
export function Banner({ title, lead, image, children }: { title: string; lead?: string; image?: { set: ImageSet; alt: string }; children?: ReactNode }) {
  return (
    <div className={image ? 'banner banner--image' : 'banner'}>
      <div className="wrap">
        <div className="banner__text">
          <h1>{title}</h1>
          {lead && <p className="banner__lead">{lead}</p>}
          {children}
        </div>
        {image && <Picture className="banner__image" set={image.set} alt={image.alt} sizes={HERO_SIZES} eager />}
      </div>
    </div>
  )
}

/** The "speak to us" button: to the contact page. */
export function SpeakToUs({ page }: { page: Page }) {
  return <a className="button" href={page.url('/contact/')}>{page.t('cta.speak')}</a>
}

/** "Read more" with the target's title for screen readers, so every such link is distinct. */
export function ReadMore({ href, title, page }: { href: string; title: string; page: Page }) {
  return <a className="read-more" href={href}>{page.t('cta.readMore')}<span className="visually-hidden">: {title}</span></a>
}

/** The closing call to action of most pages. */
export function CallToAction({ page }: { page: Page }) {
  return (
    <section className="cta" aria-labelledby="cta-title">
      <div className="wrap">
        <h2 id="cta-title">{page.t('cta.title')}</h2>
        <p>{page.t('cta.text')}</p>
        <p className="cta__actions"><SpeakToUs page={page} /> <WhatsAppButton page={page} /></p>
      </div>
    </section>
  )
}

/** "Medically reviewed by … on …", as a patient should see on health information. */
export function Reviewed({ page, doc }: { page: Page; doc: Doc }) {
  const reviewer = doc.data.reviewedBy ? page.doctor(doc.data.reviewedBy) : undefined
  if (!reviewer || !doc.data.reviewedOn) return null
  return (
    <p className="reviewed">
      {page.t('reviewed.by')} <a href={page.url(reviewer.path)}>{reviewer.data.title}</a>
      {' · '}{page.t('reviewed.on', { date: page.date(doc.data.reviewedOn) })}
    </p>
  )
}

/** The standard medical disclaimer. */
export function Disclaimer({ page }: { page: Page }) {
  return <p className="disclaimer">{page.t('disclaimer.medical')}</p>
}

/** A card linking to a service. */
export function ServiceCard({ page, doc }: { page: Page; doc: Doc }) {
  return (
    <article className="card">
      <h3><a href={page.url(doc.path)}>{doc.data.title}</a></h3>
      <p>{doc.data.summary}</p>
    </article>
  )
}

/** The short profile block of a doctor. */
export function DoctorProfile({ page, doc }: { page: Page; doc: Doc }) {
  return (
    <article className="doctor-card">
      <h3><a href={page.url(doc.path)}>{doc.data.name}</a></h3>
      <p className="doctor-card__role">{doc.data.role}</p>
      <p className="doctor-card__quals" lang="en">{doc.data.qualifications?.join(', ')}</p>
      <ReadMore page={page} href={page.url(doc.path)} title={doc.data.title} />
    </article>
  )
}

/** Related services and articles beside an article or a service, and a call to action. */
export function Sidebar({ page, services, articles }: { page: Page; services: Doc[]; articles: Doc[] }) {
  return (
    <aside className="sidebar" aria-label={page.t('sidebar.label')}>
      {services.length > 0 && (
        <nav aria-labelledby="sidebar-services">
          <h2 id="sidebar-services">{page.t('sidebar.services')}</h2>
          <ul>{services.map((d) => <li key={d.id}><a href={page.url(d.path)}>{d.data.title}</a></li>)}</ul>
        </nav>
      )}
      {articles.length > 0 && (
        <nav aria-labelledby="sidebar-articles">
          <h2 id="sidebar-articles">{page.t('sidebar.articles')}</h2>
          <ul>{articles.map((d) => <li key={d.id}><a href={page.url(d.path, d.locale)} hrefLang={d.locale !== page.locale.code ? d.locale : undefined}>{d.data.title}</a></li>)}</ul>
        </nav>
      )}
      <div className="sidebar__cta">
        <p>{page.t('cta.text')}</p>
        <SpeakToUs page={page} />
      </div>
    </aside>
  )
}
