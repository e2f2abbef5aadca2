/**
 * The contact form's one validator, shared by the browser island and the local endpoint.
 * Pure TypeScript without Node or DOM APIs: it takes the submitted fields as text and returns
 * either the enquiry or the errors as codes; the words come from the locale files
 * (`form.errors.<code>`), so another language is data, not code.
 *
 *   validateEnquiry({ name: 'Tan', email: 'tan@example.sg', … }, choices)
 *     -> { kind: 'valid', enquiry: { name: 'Tan', … } }
 *     -> { kind: 'invalid', errors: [{ field: 'email', code: 'emailInvalid' }] }
 *     -> { kind: 'spam' }   (the honeypot was filled: answer as if it worked, store nothing)
 */

/** Where `clinic-build dev` and `serve` take enquiries when no delivery service is configured. */
export const LOCAL_ENQUIRY_PATH = '/api/enquiry'

/** The hidden field only bots fill in (also Netlify's `data-netlify-honeypot`). */
export const HONEYPOT_FIELD = 'bot-field'

/**
 * A random id the island sends with every attempt of one enquiry (kept with the draft), so that a
 * retry after an answer that never arrived is recognised instead of stored twice.
 */
export const SUBMISSION_FIELD = 'submission'
export const SUBMISSION_ID = /^[0-9a-f]{32}$/

export const LIMITS = { name: 100, email: 254, phone: 20, message: 2000 } as const

export const CONTACT_METHODS = ['email', 'phone', 'whatsapp'] as const
export type ContactMethod = (typeof CONTACT_METHODS)[number]

/** Optional marketing consent, one unticked box per channel. */
export const MARKETING_FIELDS = ['marketingEmail', 'marketingSms', 'marketingPhone'] as const
export type MarketingField = (typeof MARKETING_FIELDS)[number]

/** The procedure choice that is not a service page, and the doctor choice that is no one in particular. */
export const NOT_SURE = 'not-sure'
export const ANY_DOCTOR = 'any'

/** The fields a visitor fills in, in the order the form shows them. */
export const ENQUIRY_FIELDS = ['name', 'email', 'phone', 'contactMethod', 'procedure', 'doctor', 'message', 'consent', ...MARKETING_FIELDS] as const
export type EnquiryField = (typeof ENQUIRY_FIELDS)[number]

export const ERROR_CODES = [
  'nameRequired', 'nameTooLong', 'emailOrPhoneRequired', 'emailInvalid', 'emailTooLong', 'emailNeeded',
  'phoneInvalid', 'phoneNeeded', 'contactMethodRequired', 'procedureRequired', 'choiceInvalid',
  'messageTooLong', 'consentRequired',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export interface FieldError {
  field: EnquiryField
  code: ErrorCode
  /** Placeholders of the message, e.g. { max: 100 }. */
  vars?: Record<string, number>
}

export interface Enquiry {
  name: string
  email: string
  /** As typed, trimmed; `phoneDigits` has the normalised form. */
  phone: string
  contactMethod: ContactMethod
  procedure: string
  doctor: string
  message: string
  /** Agreement to the privacy notice: always true in a valid enquiry. */
  consent: true
  marketing: Record<MarketingField, boolean>
}

/** The values the select boxes offer: service slugs (plus NOT_SURE) and doctor slugs (plus ANY_DOCTOR). */
export interface Choices {
  procedures: readonly string[]
  doctors: readonly string[]
}

export type Validation =
  | { kind: 'valid'; enquiry: Enquiry }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'spam' }

/** Submitted form data: every value is text; an unticked box is absent or empty. */
export type FormInput = Readonly<Record<string, string | undefined>>

export function validateEnquiry(input: FormInput, choices: Choices): Validation {
  if (text(input, HONEYPOT_FIELD) !== '') return { kind: 'spam' }
  const errors: FieldError[] = []
  const fail = (field: EnquiryField, code: ErrorCode, vars?: FieldError['vars']) => { errors.push(vars ? { field, code, vars } : { field, code }) }

  const name = text(input, 'name')
  if (name === '') fail('name', 'nameRequired')
  else if (name.length > LIMITS.name) fail('name', 'nameTooLong', { max: LIMITS.name })

  const email = text(input, 'email')
  const phone = text(input, 'phone')
  const method = text(input, 'contactMethod')
  if (email === '' && phone === '') fail('email', 'emailOrPhoneRequired')
  else if (email === '' && method === 'email') fail('email', 'emailNeeded')
  else if (email.length > LIMITS.email) fail('email', 'emailTooLong', { max: LIMITS.email })
  else if (email !== '' && !isEmail(email)) fail('email', 'emailInvalid')
  if (phone === '' && email !== '' && (method === 'phone' || method === 'whatsapp')) fail('phone', 'phoneNeeded')
  else if (phone !== '' && !isPhone(phone)) fail('phone', 'phoneInvalid')

  if (method === '') fail('contactMethod', 'contactMethodRequired')
  else if (!(CONTACT_METHODS as readonly string[]).includes(method)) fail('contactMethod', 'choiceInvalid')

  const procedure = text(input, 'procedure')
  if (procedure === '') fail('procedure', 'procedureRequired')
  else if (procedure !== NOT_SURE && !choices.procedures.includes(procedure)) fail('procedure', 'choiceInvalid')

  const doctor = text(input, 'doctor') || ANY_DOCTOR
  if (doctor !== ANY_DOCTOR && !choices.doctors.includes(doctor)) fail('doctor', 'choiceInvalid')

  const message = text(input, 'message')
  if (message.length > LIMITS.message) fail('message', 'messageTooLong', { max: LIMITS.message })

  if (!ticked(input, 'consent')) fail('consent', 'consentRequired')

  if (errors.length > 0) return { kind: 'invalid', errors }
  const marketing = Object.fromEntries(MARKETING_FIELDS.map((f) => [f, ticked(input, f)])) as Record<MarketingField, boolean>
  return {
    kind: 'valid',
    enquiry: { name, email, phone, contactMethod: method as ContactMethod, procedure, doctor, message, consent: true, marketing },
  }
}

/**
 * Singapore numbers: 8 digits beginning 3, 6, 8 or 9, with or without +65. Other countries: `+`,
 * the country code and the number, 8 to 15 digits in all (E.164). Spaces, dots, dashes and
 * brackets between digits are allowed.
 *
 *   isPhone('9123 4567') -> true     isPhone('+65 6123-4567') -> true
 *   isPhone('+44 20 7946 0958') -> true     isPhone('1234 5678') -> false
 */
export function isPhone(value: string): boolean {
  if (value.length > LIMITS.phone || !/^\+?[\d\s().-]+$/.test(value)) return false
  const compact = value.replace(/[\s().-]/g, '')
  if (/^(\+65)?[3689]\d{7}$/.test(compact)) return true
  return /^\+(?!65)[1-9]\d{7,14}$/.test(compact)
}

/** One @, something before it, a dotted domain after it, no spaces: typing mistakes, not RFC 5322. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value)
}

/** An error's message in the page's language: `form.errors.<code>` with its placeholders filled. */
export function errorMessage(error: Pick<FieldError, 'code' | 'vars'>, messages: Readonly<Record<string, string>>): string {
  return fill(messages[`form.errors.${error.code}`] ?? error.code, error.vars)
}

/** Fills `{name}` placeholders: fill('At most {max} characters', { max: 100 }). */
export function fill(template: string, vars: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in vars ? String(vars[key]) : whole))
}

/** Trimmed, with line breaks as \n: a native post sends a textarea's breaks as \r\n, which `maxlength` counts as one. */
function text(input: FormInput, field: string): string {
  return (input[field] ?? '').replace(/\r\n?/g, '\n').trim()
}

/** A ticked box posts its value ("yes" here, "on" by default); JSON may carry true. */
function ticked(input: FormInput, field: string): boolean {
  return ['yes', 'on', 'true'].includes(text(input, field).toLowerCase())
}
