/**
 * Accessibility of every page type in both languages, in Chromium: axe-core finds no violation
 * (WCAG 2.2 A and AA and axe's best practices), nor does a second engine written by others, IBM's
 * Equal Access (its WCAG 2.2 policy), and each page has the structure a screen-reader or keyboard
 * user relies on.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { AxeBuilder } from '@axe-core/playwright'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { islandsReady, openSite, PAGE_TYPES, type Site } from '../support/design-pages.ts'

let site: Site
let desktop: Page
let phone: Page
beforeAll(async () => {
  site = await openSite()
  desktop = await site.open('/')
  phone = await site.open('/', { viewport: { width: 375, height: 800 } })
})
afterAll(() => site?.close())

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

async function violations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)
}

/** IBM's engine as published, evaluated in the page as axe is (a script tag would meet the site's policy). */
const ibmEngine = readFileSync(createRequire(import.meta.url).resolve('accessibility-checker-engine/ace.js'), 'utf8')

/**
 * What IBM's engine reports as failed under its WCAG 2.2 policy (not what it asks a person to
 * check): every violation, and of its recommendations that no content sits outside a landmark.
 * `rule: message (element path)`.
 */
async function ibmViolations(page: Page): Promise<string[]> {
  await page.evaluate(ibmEngine)
  return page.evaluate(async () => {
    type Result = { ruleId: string; value: [string, string]; message: string; path: { dom: string } }
    const ace = (window as unknown as { ace: { Checker: new () => { check(doc: Document, policies: string[]): Promise<{ results: Result[] }> } } }).ace
    const report = await new ace.Checker().check(document, ['WCAG_2_2'])
    return report.results.filter((r) => r.value[1] === 'FAIL' && (r.value[0] === 'VIOLATION' || r.ruleId === 'aria_content_in_landmark')).map((r) => `${r.ruleId}: ${r.message} (${r.path.dom})`)
  })
}

describe.each(PAGE_TYPES)('$name ($url)', ({ url }) => {
  test('axe-core finds no violation, with every island running', async () => {
    await desktop.goto(site.url + url)
    await islandsReady(desktop)
    expect(await violations(desktop)).toEqual([])
  })

  test('IBM\'s Equal Access engine finds no violation either, nor content outside a landmark', async () => {
    await desktop.goto(site.url + url)
    await islandsReady(desktop)
    expect(await ibmViolations(desktop)).toEqual([])
  })

  test('has a skip link to the main content, the four landmarks, one h1 and a language', async () => {
    await desktop.goto(site.url + url)
    const facts = await desktop.evaluate(() => {
      const first = document.querySelector('body a, body button')
      return {
        skip: first?.classList.contains('skip-link') ? first.getAttribute('href') : null,
        main: document.querySelectorAll('main#main').length,
        banner: document.querySelectorAll('body > header').length,
        footer: document.querySelectorAll('body > footer').length,
        nav: document.querySelectorAll('header nav[aria-label]').length,
        h1: document.querySelectorAll('h1').length,
        lang: document.documentElement.lang,
      }
    })
    expect(facts).toEqual({ skip: '#main', main: 1, banner: 1, footer: 1, nav: 1, h1: 1, lang: url.startsWith('/cn/') ? 'zh' : 'en' })
  })
})

test('the skip link is the first stop of the keyboard, shows when focused and moves focus to the main content', async () => {
  await desktop.goto(site.url + '/services/')
  await desktop.keyboard.press('Tab')
  const skip = desktop.locator('.skip-link')
  await expect.poll(() => skip.evaluate((el) => el === document.activeElement)).toBe(true)
  const box = await skip.boundingBox()
  expect(box!.y).toBeGreaterThanOrEqual(0)
  await desktop.keyboard.press('Enter')
  await expect.poll(() => desktop.evaluate(() => document.activeElement?.id)).toBe('main')
})

test('the navigation marks the current page, and the section of a page inside it', async () => {
  const current = async (url: string) => {
    await desktop.goto(site.url + url)
    return desktop.$$eval('#site-nav a[aria-current]', (links) => links.map((a) => `${a.getAttribute('href')}=${a.getAttribute('aria-current')}`))
  }
  expect(await current('/contact/')).toEqual(['/contact/=page'])
  expect(await current('/cn/dr-evelyn-quah/')).toEqual(['/cn/dr-evelyn-quah/=page'])
  expect(await current('/services/rhinoplasty/')).toEqual(['/services/=true', '/services/rhinoplasty/=page'])
  expect(await current('/blog/how-to-prepare-for-a-rhinoplasty/')).toEqual(['/blog/=true'])
})

test('focus is visible: a focused link or button draws an outline of at least 2 px', async () => {
  await desktop.goto(site.url + '/services/rhinoplasty/')
  await islandsReady(desktop)
  for (let i = 0; i < 12; i++) {
    await desktop.keyboard.press('Tab')
    const outline = await desktop.evaluate(() => {
      const el = document.activeElement!
      const style = getComputedStyle(el)
      return { tag: el.tagName, width: parseFloat(style.outlineWidth), style: style.outlineStyle }
    })
    expect(outline.style, outline.tag).not.toBe('none')
    expect(outline.width, outline.tag).toBeGreaterThanOrEqual(2)
  }
})

describe('on a phone, with the menu open', () => {
  test.each(['/', '/cn/services/rhinoplasty/'])('%s has no axe violation', async (url) => {
    await phone.goto(site.url + url)
    await islandsReady(phone)
    await phone.locator('.menu-button').click()
    await phone.locator('.submenu-button').click()
    expect(await violations(phone)).toEqual([])
  })
})

test('under reduced motion nothing on the page transitions or animates', async () => {
  const page = await site.open('/', { reducedMotion: 'reduce' })
  await islandsReady(page)
  const moving = await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => {
    const style = getComputedStyle(el)
    const longest = (list: string) => Math.max(...list.split(',').map((s) => parseFloat(s) || 0))
    return longest(style.transitionDuration) > 0 || longest(style.animationDuration) > 0
  }).map((el) => el.className))
  expect(moving).toEqual([])
  await page.context().close()
})
