import type { Page } from '../../src/page/index.ts'

/** The clinic's postal address. */
export function Address({ page }: { page: Page }) {
  const a = page.site.address
  return (
    <address className="address">
      <strong>{page.site.name}</strong><br />
      {a.building}, {a.unit}<br />
      {a.street}<br />
      {a.city} {a.postalCode}
    </address>
  )
}
