/** The contact form in Chromium with JavaScript: validation, submission, failures, nothing lost. */
import { rmSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from '../../support/browser.ts'
import { fillForm, formValues, startFormSite, VISITOR, type FormSite, type Visitor } from '../../support/form.ts'

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
  context = await browser.newContext()
})

/** Opens a contact page once its island has taken over the form (it turns native checks off). */
async function openForm(path = '/contact/'): Promise<Page> {
  const page = await context.newPage()
  const scriptErrors: string[] = []
  page.on('pageerror', (e) => scriptErrors.push(e.message))
  page.on('dialog', (d) => { scriptErrors.push(`dialog: ${d.message()}`); void d.dismiss() })
  ;(page as Page & { scriptErrors: string[] }).scriptErrors = scriptErrors
  await page.goto(site.url + path)
  await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
  return page
}
const scriptErrorsOf = (page: Page) => (page as Page & { scriptErrors: string[] }).scriptErrors
const submit = (page: Page) => page.click('button[type=submit]')
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id)
const errorText = (page: Page, field: string) => page.locator(`#f-${field}-error`).textContent()

/** The values the form shows after `visitor` filled it. */
function shown(visitor: Visitor): Record<string, string | boolean> {
  return {
    'f-bot-field': '', 'f-name': visitor.name ?? '', 'f-email': visitor.email ?? '', 'f-phone': visitor.phone ?? '',
    ...(visitor.contactMethod ? { contactMethod: visitor.contactMethod } : {}),
    'f-procedure': visitor.procedure ?? '', 'f-doctor': visitor.doctor ?? 'any', 'f-message': visitor.message ?? '',
    'f-consent': Boolean(visitor.consent),
    ...Object.fromEntries((['Email', 'Sms', 'Phone'] as const).map((c) => [`f-marketing${c}`, Boolean(visitor.marketing?.includes(c))])),
  }
}

const ENGLISH_ERRORS = {
  name: 'Enter your name.',
  email: 'Enter an e-mail address or a phone number, so that we can reply.',
  contactMethod: 'Choose how we should contact you.',
  procedure: 'Choose the procedure you are asking about, or "Not sure yet".',
  consent: 'Tick the box to agree to how your details are used, so that we can answer you.',
}
const CHINESE_ERRORS = {
  name: '请填写您的姓名。',
  email: '请填写电邮地址或电话号码，以便我们回复您。',
  contactMethod: '请选择我们联系您的方式。',
  procedure: '请选择您想了解的手术，或选择“尚未确定”。',
  consent: '请勾选同意我们使用您的资料，以便回复您。',
}

for (const [path, errors, summary] of [
  ['/contact/', ENGLISH_ERRORS, 'Your enquiry has not been sent yet. Please check:'],
  ['/cn/contact/', CHINESE_ERRORS, '您的咨询尚未发送，请检查以下各项：'],
] as const) {
  test(`an empty submit on ${path} shows every error beside its field and in the summary, focus on the first`, async () => {
    const page = await openForm(path)
    await submit(page)
    await page.locator('.error-summary').waitFor()
    expect(await page.locator('.error-summary__title').textContent()).toBe(summary)
    expect(await page.locator('.error-summary li').allTextContents()).toEqual(Object.values(errors))
    for (const [field, message] of Object.entries(errors)) {
      expect(await errorText(page, field), field).toBe(message)
      const control = page.locator(field === 'contactMethod' ? '#f-contactMethod-email' : `#f-${field}`)
      expect(await control.getAttribute('aria-invalid'), field).toBe('true')
      expect((await control.getAttribute('aria-describedby'))?.split(' '), field).toContain(`f-${field}-error`)
    }
    expect(await page.locator('#f-phone').getAttribute('aria-invalid')).toBeNull()
    expect(await focusedId(page)).toBe('f-name')
    expect(site.lines()).toEqual([])

    // A summary link takes the keyboard to its field; a corrected field loses its error at once.
    await page.locator('.error-summary a', { hasText: errors.procedure }).click()
    expect(await focusedId(page)).toBe('f-procedure')
    await page.fill('#f-name', 'Tan')
    expect(await page.locator('#f-name-error').isHidden()).toBe(true)
    expect(await page.locator('#f-name').getAttribute('aria-invalid')).toBeNull()
    expect(await page.locator('#f-name').getAttribute('aria-describedby')).toBeNull()
    expect(await page.locator('.error-summary li').count()).toBe(4)
    expect(scriptErrorsOf(page)).toEqual([])
  })
}

test('the contact form has no axe-core violations, also while it shows errors and a failure', async () => {
  const axe = (page: Page) => new AxeBuilder({ page }).include('.contact-form').analyze()
  for (const path of ['/contact/', '/cn/contact/']) {
    const page = await openForm(path)
    expect((await new AxeBuilder({ page }).analyze()).violations, `the whole page ${path}`).toEqual([])
    await submit(page)
    await page.locator('.error-summary').waitFor()
    expect((await axe(page)).violations, `${path} with errors`).toEqual([])
    await fillForm(page, VISITOR)
    await page.route('**/api/enquiry', (route) => route.abort('connectionrefused'))
    await submit(page)
    await page.locator('.contact-form__problem').waitFor()
    expect((await axe(page)).violations, `${path} with a failure`).toEqual([])
  }
}, 240_000) // six axe runs: slow on a busy two-core machine

for (const [path, thanks, locale] of [['/contact/', '/thank-you/', 'en'], ['/cn/contact/', '/cn/thank-you/', 'cn']] as const) {
  test(`a valid submit on ${path} lands on ${thanks}, with the enquiry stored with every field`, async () => {
    const page = await openForm(path)
    const notice = await page.locator('input[name=notice]').inputValue()
    await fillForm(page, VISITOR)
    await submit(page)
    await page.waitForURL(site.url + thanks)
    const [stored, ...more] = site.enquiries()
    expect(more).toEqual([])
    expect(stored).toMatchObject({
      locale, page: path, noticeVersion: notice,
      fields: {
        name: VISITOR.name, email: VISITOR.email, phone: VISITOR.phone, contactMethod: 'phone',
        procedure: 'double-eyelid-surgery', doctor: 'dr-nathaniel-goh', message: VISITOR.message,
      },
      consent: { privacyNotice: true, marketingEmail: true, marketingSms: false, marketingPhone: true },
    })
    expect(notice).toMatch(/^[0-9a-f]{16}$/)
    // The draft went with the enquiry: the form is empty when the visitor comes back, by the
    // Back button (from the back/forward cache or not) or by opening the page again.
    await page.goBack()
    await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
    await expect.poll(() => formValues(page)).toEqual(shown({}))
    expect(await page.locator('button[type=submit]').textContent()).toBe(locale === 'en' ? 'Send enquiry' : '发送咨询')
    const again = await openForm(path)
    expect(await formValues(again)).toEqual(shown({}))
  })
}

test('what the visitor typed survives a reload', async () => {
  const page = await openForm('/cn/contact/')
  await fillForm(page, VISITOR)
  await page.reload()
  await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
  expect(await formValues(page)).toEqual(shown(VISITOR))
})

test('with the endpoint unreachable the visitor is told, keeps every field (also after a reload) and can retry', async () => {
  const page = await openForm('/contact/')
  await page.route('**/api/enquiry', (route) => route.abort('connectionrefused'))
  await fillForm(page, VISITOR)
  await submit(page)
  const problem = page.locator('.contact-form__problem')
  await problem.waitFor()
  expect(await problem.locator('p').first().textContent()).toMatch(/^We could not reach the clinic's server, so your enquiry was not sent\./)
  expect(await problem.locator('a[href^="https://wa.me/6581002030"]').count()).toBe(1)
  expect(await problem.locator('a[href="tel:+6561002030"]').textContent()).toBe('Call +65 6100 2030')
  expect(await page.evaluate(() => document.activeElement?.className)).toBe('contact-form__problem')
  expect(await formValues(page)).toEqual(shown(VISITOR))
  expect(await page.locator('button[type=submit]').textContent()).toBe('Send enquiry')

  await page.reload()
  await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
  expect(await formValues(page)).toEqual(shown(VISITOR))

  await page.unroute('**/api/enquiry')
  await submit(page)
  await page.waitForURL(`${site.url}/thank-you/`)
  expect(site.enquiries().map((e) => e.fields.name)).toEqual([VISITOR.name])
})

test('when the answer is lost on its way back, a retry is not stored twice; an edited enquiry is a new one', async () => {
  const page = await openForm('/contact/')
  let lose = 1
  await page.route('**/api/enquiry', async (route) => {
    if (lose-- <= 0) return route.continue()
    await route.fetch() // the server takes it...
    await route.abort('connectionreset') // ...and the browser never hears back
  })
  await fillForm(page, VISITOR)
  await submit(page)
  await page.locator('.contact-form__problem').waitFor()
  expect(site.lines()).toHaveLength(1)
  await page.getByRole('button', { name: 'Try again' }).click()
  await page.waitForURL(`${site.url}/thank-you/`)
  expect(site.lines()).toHaveLength(1)

  const second = await openForm('/contact/')
  lose = 1
  await second.route('**/api/enquiry', async (route) => {
    if (lose-- <= 0) return route.continue()
    await route.fetch()
    await route.abort('connectionreset')
  })
  await fillForm(second, { ...VISITOR, message: 'First version.' })
  await submit(second)
  await second.locator('.contact-form__problem').waitFor()
  await second.fill('#f-message', 'Second version, with more detail.')
  await submit(second)
  await second.waitForURL(`${site.url}/thank-you/`)
  expect(site.enquiries().map((e) => e.fields.message)).toEqual([VISITOR.message, 'First version.', 'Second version, with more detail.'])
})

test('when the server answers 500 the visitor is told in their language, keeps every field and can retry', async () => {
  mkdirSync(join(site.root, '.clinic/enquiries.jsonl'), { recursive: true }) // the server cannot store the enquiry
  const page = await openForm('/cn/contact/')
  await fillForm(page, VISITOR)
  await submit(page)
  const problem = page.locator('.contact-form__problem')
  await problem.waitFor()
  expect(await problem.locator('p').first().textContent()).toMatch(/^诊所的服务器出现问题（错误 500）/)
  expect(await formValues(page)).toEqual(shown(VISITOR))

  rmSync(join(site.root, '.clinic/enquiries.jsonl'), { recursive: true })
  await page.getByRole('button', { name: '再试一次' }).click()
  await page.waitForURL(`${site.url}/cn/thank-you/`)
  expect(site.enquiries()).toHaveLength(1)
})

test('offline, the visitor is told and keeps every field, also after a reload once back online', async () => {
  const page = await openForm('/contact/')
  await fillForm(page, VISITOR)
  await context.setOffline(true)
  await submit(page)
  const problem = page.locator('.contact-form__problem')
  await problem.waitFor()
  expect(await problem.locator('p').first().textContent()).toMatch(/^You appear to be offline, so your enquiry was not sent\./)
  expect(await formValues(page)).toEqual(shown(VISITOR))

  await context.setOffline(false)
  await page.reload()
  await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
  expect(await formValues(page)).toEqual(shown(VISITOR))
  await submit(page)
  await page.waitForURL(`${site.url}/thank-you/`)
  expect(site.enquiries()).toHaveLength(1)
})

test('double-clicking submit sends one enquiry, and the button shows progress meanwhile', async () => {
  const page = await openForm('/contact/')
  await fillForm(page, VISITOR)
  let release!: () => void
  const held = new Promise<void>((r) => { release = r })
  let requests = 0
  await page.route('**/api/enquiry', async (route) => { requests++; await held; await route.continue() })
  await page.dblclick('button[type=submit]')
  await expect.poll(() => page.locator('button[type=submit]').textContent()).toBe('Sending…')
  expect(await page.locator('button[type=submit]').getAttribute('aria-disabled')).toBe('true')
  expect(await page.locator('.contact-form__progress').textContent()).toBe('Sending your enquiry…')
  await page.click('button[type=submit]', { force: true }) // a third, impatient click while it is sending
  release()
  await page.waitForURL(`${site.url}/thank-you/`)
  expect(requests).toBe(1)
  expect(site.lines()).toHaveLength(1)
})

test('script-injection text in every field is kept, stored and shown as text, never run', async () => {
  const attack = (n: number) => `<script>window.__attacked=${n}</script><img src=x onerror="window.__attacked=${n}">"'&`
  const page = await openForm('/contact/')
  const typed: Visitor = { ...VISITOR, name: attack(1), email: attack(2), phone: attack(3), message: attack(4) }
  await fillForm(page, typed)
  typed.phone = attack(3).slice(0, 20) // the phone field takes 20 characters
  await submit(page) // the e-mail and phone are invalid: errors, then a reload from the draft
  await page.locator('.error-summary').waitFor()
  await page.reload()
  await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
  expect(await formValues(page)).toEqual(shown(typed))
  expect(await page.evaluate(() => (window as { __attacked?: number }).__attacked)).toBeUndefined()

  await page.fill('#f-email', '<b>x</b>@example.com')
  await page.fill('#f-phone', '')
  await page.check('#f-contactMethod-email')
  await submit(page)
  await page.waitForURL(`${site.url}/thank-you/`)
  expect(site.enquiries()[0]!.fields).toMatchObject({ name: attack(1), email: '<b>x</b>@example.com', phone: '', message: attack(4) })
  expect(scriptErrorsOf(page)).toEqual([])
})
