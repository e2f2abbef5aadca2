import type { Page } from '../../src/page/index.ts'
import type { Doc } from '../../src/types.ts'

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
