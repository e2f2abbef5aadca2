/**
 * The design's guarantees in the built HTML itself, before any script runs: Markdown images load
 * lazily with their alt text, the islands' markers and the opening-hours data, and the rule
 * that decides whether the clinic is open.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../src/build.ts'
import { clockIn, openState } from '../src/shared/opening-hours.ts'
import { copySite, edit } from './helpers.ts'

let result: BuildResult
const html = (path: string) => String(result.files.find((f) => f.path === path)!.contents)

beforeAll(async () => {
  const site = copySite()
  edit(site, 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md', (text) => `${text}\n![A drawing of three arches](/images/arches.jpg)\n`)
  result = await build({ root: site, out: join(mkdtempSync(join(tmpdir(), 'clinic-markup-')), 'dist'), write: false })
  expect(result.ok).toBe(true)
})

/** The <img> tags of a built page. */
const images = (path: string) => html(path).match(/<img [^>]*>/g) ?? []

test('an image in Markdown loads lazily, with its size and alt text', () => {
  const [image] = images('blog/how-to-prepare-for-a-rhinoplasty/index.html')
  expect(image).toMatch(/ alt="A drawing of three arches"/)
  expect(image).toMatch(/ width="\d+" height="\d+"/)
  expect(image).toMatch(/ loading="lazy"/)
  expect(image).not.toMatch(/fetchpriority/)
})

test('the home hero is the one eager image, fetched first', () => {
  const [hero, ...others] = images('index.html')
  expect(hero).toMatch(/ alt="[^"]+"/)
  expect(hero).toMatch(/ loading="eager" fetchpriority="high"/)
  expect(others).toEqual([])
})

describe('islands in the static HTML', () => {
  test('each page marks only the islands it uses', () => {
    const islands = (path: string) => [...new Set([...html(path).matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]))].sort()
    expect(islands('index.html')).toEqual(['carousel', 'opening-hours', 'scroll-to-top'])
    expect(islands('cn/services/rhinoplasty/index.html')).toEqual(['accordion', 'opening-hours', 'scroll-to-top', 'tabs'])
    expect(islands('contact/index.html')).toEqual(['contact-form', 'map', 'opening-hours', 'scroll-to-top'])
    expect(islands('blog/index.html')).toEqual(['opening-hours', 'scroll-to-top'])
  })

  test('the map page holds no third-party frame, only the link and the address of the frame for later', () => {
    const page = html('contact/index.html')
    expect(page).not.toContain('<iframe')
    expect(page.includes('data-embed="https://www.google.com/maps?q=1.3041,103.8328&z=16&output=embed"')).toBe(true)
  })

  test('no inline event handler in any page: islands attach their listeners from their modules', () => {
    for (const file of result.files.filter((f) => f.path.endsWith('.html'))) {
      expect(String(file.contents), file.path).not.toMatch(/<[^>]+\son[a-z]+=/i)
    }
  })
})

describe('open now', () => {
  const hours = [{ days: ['Mo', 'Tu', 'We', 'Th', 'Fr'], opens: '09:00', closes: '18:00' }, { days: ['Sa'], opens: '09:00', closes: '13:00' }]

  test('is open from the opening minute until the minute before closing', () => {
    expect(openState(hours, 'Mo', 9 * 60)).toEqual({ open: true, closes: '18:00' })
    expect(openState(hours, 'Mo', 18 * 60 - 1)).toEqual({ open: true, closes: '18:00' })
    expect(openState(hours, 'Mo', 18 * 60)).toEqual({ open: false, opens: { day: 'Tu', time: '09:00' } })
    expect(openState(hours, 'We', 8 * 60)).toEqual({ open: false, opens: { day: 'We', time: '09:00' } })
    expect(openState(hours, 'Sa', 13 * 60)).toEqual({ open: false, opens: { day: 'Mo', time: '09:00' } })
    expect(openState(hours, 'Su', 12 * 60)).toEqual({ open: false, opens: { day: 'Mo', time: '09:00' } })
    expect(openState([], 'Su', 12 * 60)).toEqual({ open: false })
  })

  test('reads the clock in Singapore whatever the zone of the computer', () => {
    // 2026-11-22 17:30 UTC is Monday 01:30 in Singapore.
    expect(clockIn('Asia/Singapore', new Date('2026-11-22T17:30:00Z'))).toEqual({ day: 'Mo', minute: 90 })
    expect(clockIn('Asia/Singapore', new Date('2026-11-28T04:59:00Z'))).toEqual({ day: 'Sa', minute: 12 * 60 + 59 })
  })
})
