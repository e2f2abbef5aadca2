import type { Page } from '../../src/page/index.ts'
import { Banner } from '../parts/Banner.tsx'
import { Layout } from '../Layout.tsx'

/** A page of prose, such as the privacy notice. */
export function Plain({ page }: { page: Page }) {
  return (
    <Layout page={page}>
      <Banner title={page.doc!.data.title} />
      <div className="wrap"><div className="prose">{page.markdown()}</div></div>
    </Layout>
  )
}
