/**
 * Whether the clinic is open at a given moment, from the site configuration's opening hours.
 * Pure and dependency-free: the opening-hours island runs it in the browser, tests run it here.
 */

/** The week in schema.org's two-letter day codes, Monday first (as the site configuration uses). */
export const WEEK = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const
export type Day = (typeof WEEK)[number]

export interface OpeningSlot { days: string[]; opens: string; closes: string }

export type OpenState =
  | { open: true; closes: string }
  | { open: false; opens?: { day: Day; time: string } }

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** Day and minute of the day at `when` in the given IANA time zone (Singapore for this clinic). */
export function clockIn(timeZone: string, when: Date): { day: Day; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(when)
  const part = (type: string) => parts.find((p) => p.type === type)!.value
  return { day: part('weekday').slice(0, 2) as Day, minute: Number(part('hour')) * 60 + Number(part('minute')) }
}

/** Open now (and until when), or closed (and when it opens next, within a week). */
export function openState(hours: OpeningSlot[], day: Day, minute: number): OpenState {
  const slotsOn = (d: Day) => hours.filter((h) => h.days.includes(d)).sort((a, b) => minutes(a.opens) - minutes(b.opens))
  const now = slotsOn(day).find((h) => minutes(h.opens) <= minute && minute < minutes(h.closes))
  if (now) return { open: true, closes: now.closes }
  const today = WEEK.indexOf(day)
  for (let ahead = 0; ahead < 8; ahead++) {
    const next = WEEK[(today + ahead) % 7]!
    const slot = slotsOn(next).find((h) => ahead > 0 || minutes(h.opens) > minute)
    if (slot) return { open: false, opens: { day: next, time: slot.opens } }
  }
  return { open: false }
}
