/** The contact form's rules, as the browser and the endpoint both apply them, and their messages. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { parse } from 'yaml'
import { ERROR_CODES, errorMessage, isEmail, isPhone, validateEnquiry, type FormInput } from '../../src/shared/enquiry.ts'
import { projectRoot } from '../support/helpers.ts'
import { validFields } from '../support/form.ts'

const choices = { procedures: ['rhinoplasty', 'ear'], doctors: ['dr-evelyn-quah', 'dr-nathaniel-goh'] }
const errorsOf = (input: FormInput) => {
  const result = validateEnquiry(input, choices)
  return result.kind === 'invalid' ? result.errors.map((e) => `${e.field}:${e.code}`) : []
}

test('phone numbers: Singapore\'s 8 digits beginning 3, 6, 8 or 9, with or without +65, or + and a country code', () => {
  for (const ok of ['91234567', '9123 4567', '+65 6123 4567', '+6531234567', '8123-4567', '+44 20 7946 0958', '+1 (415) 555-0132', '+86 138 0013 8000']) {
    expect(isPhone(ok), ok).toBe(true)
  }
  for (const bad of ['', '1234 5678', '7123 4567', '912 3456', '912345678', '+65 1234 5678', '+65 9123 456', '6123 4567 ext 2', '+0 123 456 789', '+1234567', '+1 234 567 890 123 456', 'phone', '<script>']) {
    expect(isPhone(bad), bad).toBe(false)
  }
})

test('e-mail addresses: one @ with a dotted domain and no spaces', () => {
  for (const ok of ['a@b.sg', 'tan.mei+clinic@mail.example.com', '陈@例子.中国']) expect(isEmail(ok), ok).toBe(true)
  for (const bad of ['', 'a@b', 'a b@c.sg', 'a@@b.sg', '@b.sg', 'a@.sg', 'a@b.', 'a@b..sg']) expect(isEmail(bad), bad).toBe(false)
})

test('a complete enquiry is valid; every field is trimmed, line breaks are \\n and the boxes are booleans', () => {
  const result = validateEnquiry({ ...validFields(), name: '  Tan  ', message: 'one\r\ntwo\rthree', consent: 'on', marketingPhone: 'true' }, choices)
  expect(result).toEqual({
    kind: 'valid',
    enquiry: {
      name: 'Tan', email: 'mei.ling@example.com', phone: '+65 9123 4567', contactMethod: 'whatsapp', procedure: 'rhinoplasty',
      doctor: 'dr-evelyn-quah', message: 'one\ntwo\nthree', consent: true,
      marketing: { marketingEmail: false, marketingSms: true, marketingPhone: true },
    },
  })
})

test('each rule reports its field and code', () => {
  expect(errorsOf({})).toEqual(['name:nameRequired', 'email:emailOrPhoneRequired', 'contactMethod:contactMethodRequired', 'procedure:procedureRequired', 'consent:consentRequired'])
  expect(errorsOf(validFields({ name: 'x'.repeat(101) }))).toEqual(['name:nameTooLong'])
  expect(errorsOf(validFields({ name: 'x'.repeat(100), message: 'y'.repeat(2000) }))).toEqual([])
  expect(errorsOf(validFields({ message: 'y'.repeat(2001) }))).toEqual(['message:messageTooLong'])
  expect(errorsOf(validFields({ email: '', phone: '91234567' }))).toEqual([])
  expect(errorsOf(validFields({ email: 'a@b.sg', phone: '', contactMethod: 'email' }))).toEqual([])
  expect(errorsOf(validFields({ email: '', contactMethod: 'email' }))).toEqual(['email:emailNeeded'])
  expect(errorsOf(validFields({ phone: '', contactMethod: 'whatsapp' }))).toEqual(['phone:phoneNeeded'])
  expect(errorsOf(validFields({ email: `${'a'.repeat(250)}@b.sg` }))).toEqual(['email:emailTooLong'])
  expect(errorsOf(validFields({ email: 'nope', phone: '123' }))).toEqual(['email:emailInvalid', 'phone:phoneInvalid'])
  expect(errorsOf(validFields({ contactMethod: 'fax', procedure: 'facelift', doctor: 'dr-nobody' }))).toEqual(['contactMethod:choiceInvalid', 'procedure:choiceInvalid', 'doctor:choiceInvalid'])
  expect(errorsOf(validFields({ procedure: 'not-sure', doctor: '' }))).toEqual([])
  expect(errorsOf(validFields({ consent: '' }))).toEqual(['consent:consentRequired'])
  expect(errorsOf(validFields({ marketingEmail: '', marketingSms: '', marketingPhone: '' }))).toEqual([])
})

test('a filled honeypot marks the submission as spam, whatever else it holds', () => {
  expect(validateEnquiry({ ...validFields(), 'bot-field': 'x' }, choices)).toEqual({ kind: 'spam' })
  expect(validateEnquiry({ 'bot-field': 'x' }, choices)).toEqual({ kind: 'spam' })
})

test('every rule has a message in every locale file, with its placeholders', () => {
  const site = parse(readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8')) as { locales: { messages: string }[] }
  for (const { messages: name } of site.locales) {
    const file = parse(readFileSync(join(projectRoot, `locales/${name}.yaml`), 'utf8')) as { form: { errors: Record<string, string> } }
    const flat = Object.fromEntries(Object.entries(file.form.errors).map(([k, v]) => [`form.errors.${k}`, v]))
    for (const code of ERROR_CODES) {
      const message = errorMessage({ code, vars: { max: 123 } }, flat)
      expect(message, `${name}: ${code}`).not.toBe(code)
      expect(message, `${name}: ${code}`).not.toMatch(/\{\w+\}/)
      if (code.endsWith('TooLong')) expect(message, `${name}: ${code}`).toContain('123')
    }
  }
})
