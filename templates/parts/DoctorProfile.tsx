import type { Page } from '../../src/page/index.ts'
import type { Doc } from '../../src/types.ts'
import { Monogram } from './Monogram.tsx'
import { ReadMore } from './ReadMore.tsx'
import { cardTitleId } from './card-title.ts'

/** The profile block of a doctor: initials, name, registration, qualifications and languages. */
export function DoctorProfile({ page, doc }: { page: Page; doc: Doc }) {
  const { data } = doc
  return (
    <article className="doctor-card" aria-labelledby={cardTitleId(doc.path)}>
      <Monogram name={doc.data.title} />
      <div className="doctor-card__body">
        <h3 id={cardTitleId(doc.path)}><a href={page.url(doc.path)}>{data.name}</a></h3>
        <p className="doctor-card__role">{data.role}</p>
        <p className="doctor-card__quals" lang="en">{data.qualifications?.join(' · ')}</p>
        {data.languages && <p className="doctor-card__languages">{page.t('doctor.languages')}{page.t('language.labelSeparator')}{page.list(data.languages)}</p>}
        <ReadMore page={page} href={page.url(doc.path)} title={data.title} />
      </div>
    </article>
  )
}
