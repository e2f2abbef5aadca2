import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { CallToAction } from '../parts/CallToAction.tsx'
import { Carousel } from '../parts/Carousel.tsx'
import { DoctorProfile } from '../parts/DoctorProfile.tsx'
import { ReadMore } from '../parts/ReadMore.tsx'
import { SpeakToUs } from '../parts/SpeakToUs.tsx'
import { WhatsAppButton } from '../parts/WhatsAppButton.tsx'
import { Layout } from '../Layout.tsx'
import { cardTitleId } from '../parts/card-title.ts'

export function Home({ page }: { page: Page }) {
  const { doc, t, collections, locale } = page
  const services = collections.services[locale.code] ?? []
  return (
    <Layout page={page}>
      <Banner title={doc!.data.title} lead={doc!.data.intro} eyebrow={t('home.eyebrow')} image={page.hero()}>
        <p className="banner__actions"><SpeakToUs page={page} /> <WhatsAppButton page={page} /></p>
      </Banner>
      <div className="wrap prose prose--intro">{page.markdown()}</div>
      {/* A plain division: the carousel inside is the region named "our services". */}
      <div className="section section--tinted">
        <div className="wrap">
          <h2 id="home-services" className="section__title">{t('home.services')}</h2>
          <Carousel page={page} id="services-carousel" label={t('home.services')} slides={services.map((s) => ({
            key: s.id,
            content: (
              <article className="card card--slide" aria-labelledby={cardTitleId(s.path)}>
                <h3 className="card__title" id={cardTitleId(s.path)}><a href={page.url(s.path)}>{s.data.title}</a></h3>
                <p>{s.data.summary}</p>
                <ReadMore page={page} href={page.url(s.path)} title={s.data.title} />
              </article>
            ),
          }))} />
          <p className="section__more"><a className="button button--ghost" href={page.url('/services/')}>{t('home.allServices')}</a></p>
        </div>
      </div>
      <section className="section wrap" aria-labelledby="home-doctors">
        <h2 id="home-doctors" className="section__title">{t('home.doctors')}</h2>
        <div className="grid grid--two">
          {(collections.doctors[locale.code] ?? []).map((d) => <DoctorProfile key={d.id} page={page} doc={d} />)}
        </div>
      </section>
      <CallToAction page={page} />
    </Layout>
  )
}
