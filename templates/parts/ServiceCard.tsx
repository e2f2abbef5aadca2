import type { Page } from '../../src/page/index.ts'
import type { Doc } from '../../src/types.ts'
import { ReadMore } from './ReadMore.tsx'
import { cardTitleId } from './card-title.ts'

/** A card linking to a service: its title and summary. */
export function ServiceCard({ page, doc, heading: Heading = 'h2' }: { page: Page; doc: Doc; heading?: 'h2' | 'h3' }) {
  return (
    <article className="card" aria-labelledby={cardTitleId(doc.path)}>
      <Heading className="card__title" id={cardTitleId(doc.path)}><a href={page.url(doc.path)}>{doc.data.title}</a></Heading>
      <p>{doc.data.summary}</p>
      <ReadMore page={page} href={page.url(doc.path)} title={doc.data.title} />
    </article>
  )
}
