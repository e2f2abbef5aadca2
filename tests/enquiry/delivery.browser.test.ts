/** Delivery set in content/site.yaml: an HTTPS form service or Netlify Forms, with and without JavaScript. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, Request } from 'playwright-core'
import { build } from '../../src/build/build.ts'
import { launchBrowser } from '../support/browser.ts'
import { fillForm, formValues, startFormSite, VISITOR, type FormSite } from '../support/form.ts'
import { copySite, edit } from '../support/helpers.ts'

const SERVICE = 'https://forms.example.test/f/abc123'
const contactForm = (yaml: string) => (root: string) =>
  edit(root, 'content/site.yaml', (text) => text.replace(/^contactForm:\n(?: .*\n)+/m, `contactForm:\n${yaml}\n`))

let browser: Browser
beforeAll(async () => { browser = await launchBrowser() })
afterAll(async () => { await browser?.close() })

test('mistakes in the delivery settings are reported at their line of site.yaml', async () => {
  const cases: [string, RegExp][] = [
    ['  delivery: endpoint', /"contactForm\.endpoint" is required when delivery is "endpoint": the https:\/\/ address of the form service/],
    ['  delivery: endpoint\n  endpoint: http://forms.example.test/x', /"contactForm\.endpoint" is invalid: must be an https:\/\/ address/],
    ['  delivery: netlify\n  endpoint: https://forms.example.test/x', /"contactForm\.endpoint" is used only with delivery "endpoint" \(delivery is "netlify"\)/],
    ['  delivery: email', /"contactForm\.delivery" is invalid: .*"local"\|"endpoint"\|"netlify"/],
  ]
  for (const [yaml, message] of cases) {
    const root = copySite()
    contactForm(yaml)(root)
    const result = await build({ root, write: false })
    expect(result.ok, yaml).toBe(false)
    const [problem] = result.diagnostics
    expect(problem, yaml).toMatchObject({ code: 'InvalidSiteConfig', file: 'content/site.yaml' })
    expect(problem!.message, yaml).toMatch(message)
    const section = readFileSync(join(root, 'content/site.yaml'), 'utf8').split('\n').indexOf('contactForm:') + 1
    expect(problem!.line, yaml).toBe(section + (yaml.includes('endpoint:') ? 2 : 1))
  }
})

describe('an HTTPS form service', () => {
  let site: FormSite
  beforeAll(async () => { site = await startFormSite(contactForm(`  endpoint: ${SERVICE}`)) })
  afterAll(async () => { await site?.close() })

  test('the form posts to it natively, asking it to return to the thank-you page of the page\'s language', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    let sent: Request | undefined
    await page.route(`${SERVICE}**`, async (route) => {
      sent = route.request()
      await route.fulfill({ status: 303, headers: { Location: `${site.url}/cn/thank-you/` } })
    })
    await page.goto(`${site.url}/cn/contact/`)
    expect(await page.getAttribute('form.contact-form', 'action')).toBe(SERVICE)
    await fillForm(page, VISITOR)
    await Promise.all([page.waitForURL(`${site.url}/cn/thank-you/`), page.click('button[type=submit]')])
    expect(sent!.method()).toBe('POST')
    expect(sent!.headers()['content-type']).toBe('application/x-www-form-urlencoded')
    const body = new URLSearchParams(sent!.postData()!)
    expect(body.get('_next')).toBe('https://www.amberlin-clinic.example/cn/thank-you/')
    expect(body.get('name')).toBe(VISITOR.name)
    expect(body.get('locale')).toBe('cn')
    expect(site.lines()).toEqual([])
    await context.close()
  })

  test('with JavaScript it sends JSON asking for JSON, opens the thank-you page on success and keeps everything on refusal', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const answers = [
      { status: 422, contentType: 'application/json', body: JSON.stringify({ error: 'Validation errors', errors: [{ field: 'email', code: 'TYPE_EMAIL', message: 'should be an email' }] }) },
      { status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true }) },
    ]
    const sent: Request[] = []
    await page.route(`${SERVICE}**`, async (route) => { sent.push(route.request()); await route.fulfill(answers.shift()!) })
    await page.goto(`${site.url}/contact/`)
    await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
    await fillForm(page, VISITOR)
    await page.click('button[type=submit]')
    const problem = page.locator('.contact-form__problem')
    await problem.waitFor()
    expect(await problem.locator('p').first().textContent()).toMatch(/^The clinic's server did not accept your enquiry \(error 422\)\./)
    expect(await formValues(page)).toMatchObject({ 'f-name': VISITOR.name, 'f-email': VISITOR.email, 'f-message': VISITOR.message })

    await page.click('button[type=submit]')
    await page.waitForURL(`${site.url}/thank-you/`)
    expect(sent).toHaveLength(2)
    expect(sent[1]!.headers()).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' })
    expect(JSON.parse(sent[1]!.postData()!)).toMatchObject({ name: VISITOR.name, email: VISITOR.email, consent: 'yes', marketingEmail: 'yes', locale: 'en', page: '/contact/' })
    await context.close()
  })
})

describe('Netlify Forms', () => {
  let site: FormSite
  beforeAll(async () => { site = await startFormSite(contactForm('  delivery: netlify\n  formName: clinic-enquiry')) })
  afterAll(async () => { await site?.close() })

  test('the form carries Netlify\'s attributes, form name and honeypot, and posts to the thank-you page', async () => {
    const html = await (await fetch(`${site.url}/cn/contact/`)).text()
    const form = /<form[^>]*>/.exec(html)![0]
    expect(form).toContain('name="clinic-enquiry"')
    expect(form).toContain('data-netlify="true"')
    expect(form).toContain('data-netlify-honeypot="bot-field"')
    expect(form).toContain('action="/cn/thank-you/"')
    expect(html).toContain('<input type="hidden" name="form-name" value="clinic-enquiry">')
    expect(html).toMatch(/<input id="f-bot-field"[^>]*name="bot-field"/)
  })

  for (const javaScriptEnabled of [false, true]) {
    test(`${javaScriptEnabled ? 'with' : 'without'} JavaScript the enquiry is posted form-encoded and the visitor lands on the thank-you page`, async () => {
      const context = await browser.newContext({ javaScriptEnabled })
      const page = await context.newPage()
      const posts: Request[] = []
      page.on('request', (r) => { if (r.method() === 'POST') posts.push(r) })
      // Netlify takes the post and answers with the page posted to; a static server would refuse it.
      const thankYou = await (await fetch(`${site.url}/cn/thank-you/`)).text()
      await page.route('**/cn/thank-you/', (route) => (route.request().method() === 'POST'
        ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: thankYou })
        : route.continue()))
      await page.goto(`${site.url}/cn/contact/`)
      if (javaScriptEnabled) await page.waitForSelector('form.contact-form[novalidate]', { state: 'attached' })
      await fillForm(page, VISITOR)
      await Promise.all([page.waitForURL(`${site.url}/cn/thank-you/`), page.click('button[type=submit]')])
      await expect.poll(() => page.locator('h1').textContent()).toBe('感谢您的咨询')
      expect(posts).toHaveLength(1)
      expect(posts[0]!.url()).toBe(`${site.url}/cn/thank-you/`)
      expect(posts[0]!.headers()['content-type']).toBe('application/x-www-form-urlencoded')
      const body = new URLSearchParams(posts[0]!.postData()!)
      expect(body.get('form-name')).toBe('clinic-enquiry')
      expect(body.get('bot-field')).toBe('')
      expect(body.get('message')).toBe(VISITOR.message.replace('\n', javaScriptEnabled ? '\n' : '\r\n'))
      await context.close()
    })
  }
})
