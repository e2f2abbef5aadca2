import type { Page } from '../../src/page/index.ts'
import { WEEK } from '../../src/shared/opening-hours.ts'

/**
 * The week's opening hours from the site configuration, as a table in the static HTML. The
 * opening-hours island adds whether the clinic is open now (Singapore time) and marks today.
 */
export function OpeningHours({ page, caption = true }: { page: Page; caption?: boolean }) {
  const { t, site } = page
  return (
    <div className="opening-hours" data-island="opening-hours" data-hours={JSON.stringify(site.openingHours)}
      data-open-now={t('hours.openNow')} data-closed-now={t('hours.closedNow')} data-today={t('hours.today')}>
      <table>
        {caption && <caption>{t('hours.title')}</caption>}
        <tbody>
          {WEEK.map((day) => {
            const slot = site.openingHours.find((h) => (h.days as string[]).includes(day))
            return (
              <tr key={day} data-day={day}>
                <th scope="row">{t(`days.${day}`)}</th>
                <td>{slot ? `${slot.opens}–${slot.closes}` : t('hours.closed')}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {site.closedOnPublicHolidays && <p className="note">{t('hours.publicHolidays')}</p>}
      <p className="opening-hours__now" role="status" hidden />
    </div>
  )
}
