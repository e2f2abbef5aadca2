import type { ReactNode } from 'react'
import type { Page } from '../src/page/index.ts'
import { Footer } from './Footer.tsx'
import { Head } from './Head.tsx'
import { Header } from './Header.tsx'
import { AnalyticsNoscript } from './parts/Analytics.tsx'
import { RuntimeData } from './parts/RuntimeData.tsx'
import { StructuredData } from './parts/SearchMeta.tsx'

/** The document every page shares: head, header (with the skip link), main content, footer. */
export function Layout({ page, children }: { page: Page; children: ReactNode }) {
  return (
    <html lang={page.locale.lang} data-locale={page.locale.code}>
      <Head page={page} />
      <body>
        <AnalyticsNoscript page={page} />
        <Header page={page} />
        <main id="main" tabIndex={-1}>{children}</main>
        <Footer page={page} />
        <RuntimeData page={page} />
        <StructuredData page={page} />
      </body>
    </html>
  )
}
