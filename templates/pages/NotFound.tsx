import type { Page } from '../../src/page.ts'
import { Banner } from '../parts/Blocks.tsx'
import { Layout } from '../Layout.tsx'

/** The 404 page of a locale, with the wording of the original site. */
export function NotFound({ page }: { page: Page }) {
  return (
    <Layout page={page}>
      <Banner title={page.t('notFound.title')} />
      <div className="wrap prose">
        <p><a className="button" href={page.url('/')}>{page.t('notFound.back')}</a></p>
      </div>
    </Layout>
  )
}
