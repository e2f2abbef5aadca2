import type { Page } from '../../src/page.ts'
import { Banner, CallToAction, DoctorProfile, ReadMore, SpeakToUs } from '../parts/Blocks.tsx'
import { WhatsAppButton } from '../parts/Contact.tsx'
import { Layout } from '../Layout.tsx'

export function Home({ page }: { page: Page }) {
  const { doc, t, collections, locale } = page
  const services = collections.services[locale.code] ?? []
  return (
    <Layout page={page}>
      <Banner title={doc!.data.title} lead={doc!.data.intro} image={page.hero()}>
        <p className="banner__actions"><SpeakToUs page={page} /> <WhatsAppButton page={page} /></p>
      </Banner>
      <div className="wrap prose">{page.markdown()}</div>
      <section className="wrap" aria-labelledby="home-services">
        <h2 id="home-services">{t('home.services')}</h2>
        <div className="carousel" data-island="carousel" aria-roledescription={t('carousel.name')} aria-label={t('home.services')}>
          <ul className="carousel__track">
            {services.map((s, i) => (
              <li key={s.id} className="carousel__slide card" aria-roledescription={t('carousel.slide')} aria-label={t('carousel.position', { n: i + 1, total: services.length })}>
                <h3><a href={page.url(s.path)}>{s.data.title}</a></h3>
                <p>{s.data.summary}</p>
                <ReadMore page={page} href={page.url(s.path)} title={s.data.title} />
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="wrap" aria-labelledby="home-doctors">
        <h2 id="home-doctors">{t('home.doctors')}</h2>
        <div className="grid">
          {(collections.doctors[locale.code] ?? []).map((d) => <DoctorProfile key={d.id} page={page} doc={d} />)}
        </div>
      </section>
      <CallToAction page={page} />
    </Layout>
  )
}
