/**
 * The design's guarantees in the built HTML itself, before any script runs: Markdown images load
 * lazily with their alt text, no video, audio or frame loads before it is wanted, the islands'
 * markers and the opening-hours data, and the rule that decides whether the clinic is open.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { byTag, readHtml } from '../../src/check/html.ts'
import { clockIn, openState } from '../../src/shared/opening-hours.ts'
import { copySite, edit } from '../support/helpers.ts'

let result: BuildResult
let articleLines: string[]
const html = (path: string) => String(result.files.find((f) => f.path === path)!.contents)

const ARTICLE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
/** Media an editor might paste into an article, each of which would download as the page opens. */
const MEDIA = [
  '<video src="/media/consultation.mp4" controls width="640" height="360"></video>',
  '<video controls autoplay><source src="/media/recovery.mp4" type="video/mp4">A video of the recovery room.</video>',
  '<audio src="/media/welcome.mp3" controls></audio>',
  '<iframe src="https://www.youtube-nocookie.com/embed/a1b2c3" width="560" height="315" title="A consultation"></iframe>',
]

beforeAll(async () => {
  const site = copySite()
  edit(site, ARTICLE, (text) => `${text}\n![A drawing of three arches](/images/arches.jpg)\n\n${MEDIA.join('\n\n')}\n`)
  articleLines = readFileSync(join(site, ARTICLE), 'utf8').split('\n')
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

describe('video, audio and frames', () => {
  test('pasted into Markdown, they are removed, each with an UnsafeMarkup warning at its line, and none of their files is named', () => {
    const page = html('blog/how-to-prepare-for-a-rhinoplasty/index.html')
    expect(page.match(/<(video|audio|iframe)\b[^>]*>/g)).toBeNull()
    expect(page.match(/[^"]*(\/media\/|youtube)[^"]*/g)).toBeNull()
    const warnings = result.diagnostics.filter((d) => d.code === 'UnsafeMarkup')
      .map((d) => `${d.severity} ${d.file}:${d.line}:${d.column} ${d.message}`)
    const at = (i: number, column = 1) => `warning ${ARTICLE}:${articleLines.indexOf(MEDIA[i]!) + 1}:${column}`
    const source = MEDIA[1]!.indexOf('<source') + 1
    expect(warnings).toEqual([
      `${at(0)} The <video> element was removed.`,
      `${at(1)} The <video> element was removed.`,
      `${at(1, source)} The src attribute of <source> was removed.`,
      `${at(1, source)} The type attribute of <source> was removed.`,
      `${at(2)} The <audio> element was removed.`,
      `${at(3)} The <iframe> element was removed.`,
    ])
  })

  test('no page, this one included, has a frame that is not lazy or a video or audio that is not preload="none"', () => {
    const eager: string[] = []
    for (const file of result.files.filter((f) => f.path.endsWith('.html'))) {
      const { doc } = readHtml(file.path, String(file.contents))
      for (const el of byTag(doc, 'iframe', 'video', 'audio')) {
        // Google Tag Manager's hidden frame for visitors without JavaScript is no content (none is configured here).
        const inNoscript = (function up(node: typeof el | null): boolean { return !!node && (node.name === 'noscript' || up(node.parent as typeof el | null)) })(el)
        const ok = el.name === 'iframe' ? el.attribs.loading === 'lazy' || inNoscript : el.attribs.preload === 'none'
        if (!ok) eager.push(`${file.path}: <${el.name} ${Object.entries(el.attribs).map(([k, v]) => `${k}="${v}"`).join(' ')}>`)
      }
    }
    expect(eager).toEqual([])
  })
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
    const embed = /data-embed="([^"]*)"/.exec(page)?.[1]?.replaceAll('&amp;', '&')
    expect(embed).toBe('https://www.google.com/maps?q=1.3041,103.8328&z=16&output=embed')
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
