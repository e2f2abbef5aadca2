import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { SpeakToUs } from '../parts/SpeakToUs.tsx'
import { Layout } from '../Layout.tsx'

/** The 404 page of a locale, with the wording of the original site. */
export function NotFound({ page }: { page: Page }) {
  return (
    <Layout page={page}>
      <Banner title={page.t('notFound.title')} lead={page.t('notFound.description')}>
        <p className="banner__actions"><a className="button" href={page.url('/')}>{page.t('notFound.back')}</a> <SpeakToUs page={page} variant="ghost" /></p>
      </Banner>
    </Layout>
  )
}
