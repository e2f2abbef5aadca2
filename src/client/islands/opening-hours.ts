/**
 * "Open now" beside the opening-hours table, computed for the clinic's time zone (Singapore)
 * whatever the visitor's own, and refreshed every minute, from when the table is first near the
 * viewport. Today's row is marked.
 */
import { clockIn, openState, type OpeningSlot } from '../../shared/opening-hours.ts'

const TIME_ZONE = 'Asia/Singapore'

export default function openingHours(root: HTMLElement): () => void {
  const status = root.querySelector<HTMLElement>('.opening-hours__now')
  const hours = JSON.parse(root.dataset.hours ?? '[]') as OpeningSlot[]
  if (!status) return () => {}
  const dayName = (day: string) => root.querySelector(`tr[data-day="${day}"] th`)?.textContent ?? day

  const update = () => {
    const { day, minute } = clockIn(TIME_ZONE, new Date())
    for (const row of root.querySelectorAll<HTMLElement>('tr[data-day]')) row.classList.toggle('is-today', row.dataset.day === day)
    const state = openState(hours, day, minute)
    const fill = (template: string | undefined, vars: Record<string, string>) =>
      (template ?? '').replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? '')
    status.textContent = state.open
      ? fill(root.dataset.openNow, { time: state.closes })
      : state.opens ? fill(root.dataset.closedNow, { day: state.opens.day === day ? root.dataset.today ?? '' : dayName(state.opens.day), time: state.opens.time }) : ''
    status.dataset.open = String(state.open)
    status.hidden = !status.textContent
  }
  // The first time-zone conversion makes the browser load its time-zone data: a long task on a
  // slow phone. The hours sit in the footer or a sidebar, below the fold on phones, so the status
  // is worked out when they come near the viewport rather than while the page loads.
  let timer: ReturnType<typeof setInterval> | undefined
  const near = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return
    near.disconnect()
    update()
    timer = setInterval(update, 60_000)
  }, { rootMargin: '300px' })
  near.observe(root)
  return () => {
    near.disconnect()
    clearInterval(timer)
  }
}
