import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { CallToAction } from '../parts/CallToAction.tsx'
import { Monogram } from '../parts/Monogram.tsx'
import { Layout } from '../Layout.tsx'

/** A doctor's profile: registration facts as the SMC lists them, then the profile text. */
export function Doctor({ page }: { page: Page }) {
  const { doc, t, site } = page
  const data = doc!.data
  const registration = site.doctors.find((d) => `/${d.slug}/` === doc!.path)
  return (
    <Layout page={page}>
      <Banner title={data.name!} lead={data.role} />
      <div className="wrap doctor">
        <aside className="doctor__facts" aria-labelledby="doctor-facts">
          <Monogram name={data.title} size={120} />
          <h2 id="doctor-facts" className="visually-hidden">{t('doctor.facts')}</h2>
          <dl className="facts">
            <dt>{t('doctor.qualifications')}</dt>
            <dd lang="en"><ul>{data.qualifications!.map((q) => <li key={q}>{q}</li>)}</ul></dd>
            {registration && <><dt>{t('doctor.mcr')}</dt><dd>{registration.mcr}</dd></>}
            <dt>{t('doctor.languages')}</dt>
            <dd>{page.list(data.languages!)}</dd>
            {data.memberships!.length > 0 && <><dt>{t('doctor.memberships')}</dt><dd lang="en"><ul>{data.memberships!.map((m) => <li key={m}>{m}</li>)}</ul></dd></>}
          </dl>
        </aside>
        <div className="prose doctor__text">{page.markdown()}</div>
      </div>
      <CallToAction page={page} />
    </Layout>
  )
}
