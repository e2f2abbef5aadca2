/** The contact form in Chromium with JavaScript turned off: a native post to the local endpoint. */
import AxeBuilder from '@axe-core/playwright'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser.ts'
import { fillForm, startFormSite, VISITOR, type FormSite } from '../support/form.ts'

let browser: Browser
let site: FormSite
let context: BrowserContext
beforeAll(async () => {
  site = await startFormSite()
  browser = await launchBrowser()
})
afterAll(async () => { await browser?.close(); await site?.close() })
beforeEach(async () => {
  rmSync(join(site.root, '.clinic'), { recursive: true, force: true })
  await context?.close()
  context = await browser.newContext({ javaScriptEnabled: false })
})

async function open(path: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(site.url + path)
  return page
}

for (const [path, thanks, locale, heading] of [
  ['/contact/', '/thank-you/', 'en', 'Thank you for your enquiry'],
  ['/cn/contact/', '/cn/thank-you/', 'cn', '感谢您的咨询'],
] as const) {
  test(`without JavaScript a valid enquiry on ${path} lands on ${thanks} and is stored with every field`, async () => {
    const page = await open(path)
    await fillForm(page, VISITOR)
    await Promise.all([page.waitForURL(site.url + thanks), page.click('button[type=submit]')])
    expect(await page.locator('h1').textContent()).toBe(heading)
    const [stored, ...more] = site.enquiries()
    expect(more).toEqual([])
    expect(stored).toMatchObject({
      locale, page: path,
      fields: { name: VISITOR.name, email: VISITOR.email, phone: VISITOR.phone, contactMethod: 'phone', procedure: 'double-eyelid-surgery', doctor: 'dr-nathaniel-goh', message: VISITOR.message },
      consent: { privacyNotice: true, marketingEmail: true, marketingSms: false, marketingPhone: true },
    })
    expect(stored!.noticeVersion).toMatch(/^[0-9a-f]{16}$/)
  })
}

test('without JavaScript the browser\'s own checks stop an empty form, and nothing is sent', async () => {
  const page = await open('/contact/')
  await page.click('button[type=submit]')
  expect(await page.$eval('#f-name', (el: HTMLInputElement) => el.validity.valueMissing)).toBe(true)
  expect(await page.$eval('#f-consent', (el: HTMLInputElement) => el.validity.valueMissing)).toBe(true)
  await page.fill('#f-phone', '12')
  expect(await page.$eval('#f-phone', (el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true)
  await page.fill('#f-phone', '+65 (6123) 45.67-8')
  expect(await page.$eval('#f-phone', (el: HTMLInputElement) => el.validity.patternMismatch)).toBe(false)
  expect(page.url()).toBe(`${site.url}/contact/`)
  expect(site.lines()).toEqual([])
})

test('without JavaScript a rule the browser cannot check gets a page in the form\'s language that shows the text as text', async () => {
  const page = await open('/cn/contact/')
  const attack = '<script>document.title="attacked"</script><img src=x onerror="document.title=\'attacked\'">'
  await fillForm(page, { ...VISITOR, name: attack.slice(0, 100), email: '', phone: '', message: `${attack}\n第二行` })
  await Promise.all([page.waitForURL(`${site.url}/api/enquiry`), page.click('button[type=submit]')])
  expect(await page.getAttribute('html', 'lang')).toBe('zh')
  expect(await page.locator('h1').textContent()).toBe('您的咨询未能发送')
  expect(await page.locator('main li').first().textContent()).toBe('请填写电邮地址或电话号码，以便我们回复您。')
  expect(await page.locator('textarea').nth(1).inputValue()).toBe(`${attack}\n第二行`)
  expect(await page.locator('textarea').first().inputValue()).toBe(attack.slice(0, 100))
  expect(await page.title()).toBe('您的咨询未能发送 | Amberlin Plastic Surgery Clinic')
  expect(await page.locator('main img').count()).toBe(0)
  expect(await page.locator('a', { hasText: '返回联系表格' }).getAttribute('href')).toBe('/cn/contact/')
  expect(site.lines()).toEqual([])
  const scripts = await browser.newContext() // axe runs as a script: the same page, in a tab that runs scripts
  const scripted = await scripts.newPage()
  await scripted.setContent(await page.content())
  expect((await new AxeBuilder({ page: scripted }).analyze()).violations).toEqual([])
  await scripts.close()

  // The browser's Back button returns to the form with everything typed.
  await page.goBack()
  expect(await page.locator('#f-message').inputValue()).toBe(`${attack}\n第二行`)
})
