/** The local enquiry endpoint over real HTTP: what it answers, and what lands in the enquiries file. */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { startFormSite, validFields, type FormSite } from '../support/form.ts'

let site: FormSite
beforeAll(async () => { site = await startFormSite() })
afterAll(async () => { await site?.close() })
beforeEach(() => { rmSync(join(site.root, '.clinic'), { recursive: true, force: true }) })

const endpoint = () => `${site.url}/api/enquiry`
const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(endpoint(), { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) })
const postJson = (body: unknown) =>
  fetch(endpoint(), { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })

test('a native post is stored with every field and redirected (303) to the thank-you page of its language', async () => {
  const response = await postForm(validFields({ locale: 'cn', page: '/cn/contact/', marketingEmail: 'yes' }))
  expect(response.status).toBe(303)
  expect(response.headers.get('location')).toBe('/cn/thank-you/')
  const [stored, ...more] = site.enquiries()
  expect(more).toEqual([])
  expect(stored).toMatchObject({
    locale: 'cn',
    page: '/cn/contact/',
    fields: {
      name: 'Tan Mei Ling', email: 'mei.ling@example.com', phone: '+65 9123 4567', contactMethod: 'whatsapp',
      procedure: 'rhinoplasty', doctor: 'dr-evelyn-quah', message: 'I would like to ask about recovery time.',
    },
    consent: { privacyNotice: true, marketingEmail: true, marketingSms: true, marketingPhone: false },
    noticeVersion: '0123456789abcdef',
  })
  expect(Date.now() - Date.parse(stored!.receivedAt)).toBeLessThan(60_000)
  expect(stored!.id).toMatch(/^[0-9a-f-]{36}$/)
})

test('the enquiries file is private to its owner and its folder is ignored by git', async () => {
  await postForm(validFields())
  expect(statSync(join(site.root, '.clinic/enquiries.jsonl')).mode & 0o077).toBe(0)
  expect(readFileSync(join(site.root, '.clinic/.gitignore'), 'utf8')).toMatch(/^\*$/m)
})

test('fetch gets JSON: success with the thank-you page, or every field error with its message in the form\'s language', async () => {
  const ok = await postJson(validFields({ marketingSms: '' }))
  expect(ok.status).toBe(200)
  expect(await ok.json()).toEqual({ ok: true, thanks: '/thank-you/' })
  expect(site.enquiries()[0]!.consent).toEqual({ privacyNotice: true, marketingEmail: false, marketingSms: false, marketingPhone: false })

  const bad = await postJson({ locale: 'cn', name: '', email: 'not-an-address', phone: '1234', procedure: 'facelift', doctor: 'dr-nobody', message: 'x'.repeat(2001) })
  expect(bad.status).toBe(422)
  const { errors } = await bad.json() as { errors: { field: string; code: string; message: string }[] }
  expect(errors.map((e) => [e.field, e.code])).toEqual([
    ['name', 'nameRequired'], ['email', 'emailInvalid'], ['phone', 'phoneInvalid'], ['contactMethod', 'contactMethodRequired'],
    ['procedure', 'choiceInvalid'], ['doctor', 'choiceInvalid'], ['message', 'messageTooLong'], ['consent', 'consentRequired'],
  ])
  expect(errors[0]!.message).toBe('请填写您的姓名。')
  expect(errors[6]!.message).toContain('2000')
  expect(site.lines()).toHaveLength(1)
})

test('an invalid native post gets a page in the form\'s language that lists the errors and echoes the text as text', async () => {
  const script = '<script>alert(1)</script><img src=x onerror=alert(2)>'
  const response = await postForm(validFields({ locale: 'cn', page: '/cn/contact/', name: script, email: '', phone: '', message: `${script}\nsecond line` }))
  expect(response.status).toBe(422)
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
  const html = await response.text()
  expect(html).toContain('<html lang="zh">')
  expect(html).toContain('请填写电邮地址或电话号码，以便我们回复您。')
  expect(html).toContain('href="/cn/contact/"')
  expect(html).not.toContain('<script>')
  expect(html).not.toContain('<img src=x')
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;')
  expect(html).toContain('second line')
  expect(site.lines()).toEqual([])
})

test('script-injection text in every field is stored as text, one line per enquiry', async () => {
  const script = '"}\n{"x":"<script>alert(1)</script>'
  await postJson(validFields({ name: script, message: `${script}\u2028${script}`, email: '<b>x</b>@example.com', page: '/contact/"><script>' }))
  const [line, ...more] = site.lines()
  expect(more).toEqual([])
  const stored = JSON.parse(line!)
  expect(stored.fields.name).toBe(script)
  expect(stored.fields.message).toBe(`${script}\u2028${script}`)
  expect(stored.fields.email).toBe('<b>x</b>@example.com')
})

test('a repeated submission id is answered as a success and stored once', async () => {
  const id = 'a'.repeat(32)
  const answers = await Promise.all([postJson(validFields({ submission: id })), postJson(validFields({ submission: id }))])
  expect(answers.map((a) => a.status)).toEqual([200, 200])
  expect((await postForm(validFields({ submission: id }))).status).toBe(303)
  expect(site.lines()).toHaveLength(1)
  await postJson(validFields({ submission: 'b'.repeat(32) }))
  await postJson(validFields({ submission: 'not an id' }))
  await postJson(validFields({ submission: 'not an id' }))
  expect(site.lines()).toHaveLength(4)
})

test('a filled honeypot is answered like a success and stored nowhere', async () => {
  const response = await postForm(validFields({ 'bot-field': 'http://spam.example' }))
  expect(response.status).toBe(303)
  expect(site.lines()).toEqual([])
})

test('bodies over 32 KB are refused with 413, announced or not', async () => {
  const big = validFields({ message: 'x'.repeat(33 * 1024) })
  const declared = await postForm(big, { Accept: 'application/json' })
  expect(declared.status).toBe(413)
  expect((await declared.json() as { error: string }).error).toMatch(/32768/)

  const streamed = await fetch(endpoint(), {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, duplex: 'half',
    body: new ReadableStream({ start(c) { for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode(`message=${'y'.repeat(1000)}&`)); c.close() } }),
  } as RequestInit)
  expect(streamed.status).toBe(413)
  expect(await streamed.text()).toContain('Your enquiry is too long to send')
  expect(site.lines()).toEqual([])
})

test('other methods and body types are refused with a clear answer', async () => {
  const get = await fetch(endpoint())
  expect(get.status).toBe(405)
  expect(get.headers.get('allow')).toBe('POST')
  const text = await fetch(endpoint(), { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'name=x' })
  expect(text.status).toBe(415)
  const nested = await postJson({ ...validFields(), name: { first: 'x' } })
  expect(nested.status).toBe(400)
  expect(await nested.json()).toEqual({ ok: false, error: 'the field "name" must be text' })
  expect(site.lines()).toEqual([])
})

test('50 concurrent submissions are each stored exactly once, on lines of their own', async () => {
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) =>
    postJson(validFields({ name: `Visitor ${i}`, message: `Message ${i} `.repeat(150) }))))
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200))
  const names = site.enquiries().map((e) => e.fields.name).sort()
  expect(names).toEqual(Array.from({ length: 50 }, (_, i) => `Visitor ${i}`).sort())
  for (const e of site.enquiries()) expect(e.fields.message).toBe(`Message ${e.fields.name.slice(8)} `.repeat(150).trim())
})

test('when the enquiry cannot be written, the visitor is told (500) and the failure is reported', async () => {
  mkdirSync(join(site.root, '.clinic/enquiries.jsonl'), { recursive: true }) // a folder where the file should be
  const json = await postJson(validFields())
  expect(json.status).toBe(500)
  expect(await json.json()).toEqual({ ok: false, error: 'the enquiry could not be stored' })
  const page = await postForm(validFields({ locale: 'cn' }))
  expect(page.status).toBe(500)
  expect(await page.text()).toContain('诊所的服务器出现问题')
  expect(site.errors.at(-1)).toMatch(/could not be written to .*enquiries\.jsonl: EISDIR/)

  // A retry arriving while a failing attempt is written is not told it was stored; once the file
  // can be written, the same submission is stored, once.
  const again = validFields({ submission: 'c'.repeat(32) })
  expect((await Promise.all([postJson(again), postJson(again)])).map((r) => r.status)).toEqual([500, 500])
  rmSync(join(site.root, '.clinic/enquiries.jsonl'), { recursive: true })
  expect((await Promise.all([postJson(again), postJson(again)])).map((r) => r.status)).toEqual([200, 200])
  expect(site.lines()).toHaveLength(1)
})

test('other paths are left to the static files: the contact page, whose form asks only what an enquiry needs', async () => {
  const response = await fetch(`${site.url}/cn/contact/`)
  expect(response.status).toBe(200)
  const html = await response.text()
  expect(html).toContain('action="/api/enquiry"')
  const form = html.slice(html.indexOf('<form'), html.indexOf('</form>'))
  const names = [...form.matchAll(/<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"/g)].map((m) => m[1])
  expect([...new Set(names)]).toEqual([
    'locale', 'page', 'notice', 'bot-field', 'name', 'email', 'phone', 'contactMethod', 'procedure', 'doctor', 'message',
    'consent', 'marketingEmail', 'marketingSms', 'marketingPhone',
  ])
  expect(form).not.toMatch(/type="file"|nric|birth|address"/i)
  expect(form.match(/type="checkbox"[^>]*/g)!.every((box) => !/checked/.test(box))).toBe(true)
  expect(form).toContain('href="/cn/privacy/"')
  expect(form).toContain('href="mailto:dpo@amberlin-clinic.example"')
})
