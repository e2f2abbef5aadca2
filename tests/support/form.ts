/**
 * The contact form's test site: a copy of the real site built into a temporary folder and served
 * on 127.0.0.1 by the server of `clinic-build serve`, with the handlers it mounts (the local
 * enquiry endpoint among them).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { vi } from 'vitest'
import type { EnquiryRecord } from '../../src/enquiry/handler.ts'
import { ENQUIRIES_FILE } from '../../src/enquiry/store.ts'
import { startServer } from '../../src/serve/index.ts'
import { localHandlers } from '../../src/serve/local-handlers.ts'
import { buildSite } from './browser.ts'
import { copySite } from './helpers.ts'

export interface FormSite {
  url: string
  /** The site folder: content/, locales/ and the .clinic/ the endpoint writes. */
  root: string
  /** Every enquiry stored so far, parsed line by line. */
  enquiries: () => EnquiryRecord[]
  /** The raw lines of the enquiries file. */
  lines: () => string[]
  /** What the endpoint reported (storage failures). */
  errors: string[]
  close: () => Promise<void>
}

/** Builds a copy of the site (changed by `prepare` first, if given) and serves it with the endpoint. */
export async function startFormSite(prepare?: (root: string) => void): Promise<FormSite> {
  const root = copySite()
  prepare?.(root)
  const out = await buildSite(root)
  // What the endpoint reports goes to the server's standard error, as under `clinic-build serve`.
  const errors: string[] = []
  const stderr = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => { errors.push(args.join(' ')) })
  const server = await startServer({ dir: out, port: 0, handlers: localHandlers({ root }) })
  const file = join(root, ENQUIRIES_FILE)
  const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [])
  return {
    url: server.url,
    root,
    lines,
    enquiries: () => lines().map((l) => JSON.parse(l) as EnquiryRecord),
    errors,
    close: async () => { await server.close(); stderr.mockRestore() },
  }
}

/** A complete, valid enquiry as the form posts it (English page). */
export function validFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    locale: 'en', page: '/contact/', notice: '0123456789abcdef',
    name: 'Tan Mei Ling', email: 'mei.ling@example.com', phone: '+65 9123 4567', contactMethod: 'whatsapp',
    procedure: 'rhinoplasty', doctor: 'dr-evelyn-quah', message: 'I would like to ask about recovery time.',
    consent: 'yes', marketingSms: 'yes',
    ...overrides,
  }
}

/** What a visitor types and picks, by field. */
export interface Visitor {
  name?: string
  email?: string
  phone?: string
  contactMethod?: 'email' | 'phone' | 'whatsapp'
  procedure?: string
  doctor?: string
  message?: string
  consent?: boolean
  marketing?: ('Email' | 'Sms' | 'Phone')[]
}

export const VISITOR: Required<Visitor> = {
  name: 'Lim Hui Min', email: 'hui.min@example.com', phone: '8123 4567', contactMethod: 'phone',
  procedure: 'double-eyelid-surgery', doctor: 'dr-nathaniel-goh', message: 'Is a consultation possible on a Saturday?\nThank you.',
  consent: true, marketing: ['Email', 'Phone'],
}

/** Fills the contact form the way a visitor does, field by field. */
export async function fillForm(page: import('playwright-core').Page, visitor: Visitor): Promise<void> {
  for (const field of ['name', 'email', 'phone', 'message'] as const) {
    if (visitor[field] !== undefined) await page.fill(`#f-${field}`, visitor[field])
  }
  if (visitor.contactMethod) await page.check(`#f-contactMethod-${visitor.contactMethod}`)
  if (visitor.procedure) await page.selectOption('#f-procedure', visitor.procedure)
  if (visitor.doctor) await page.selectOption('#f-doctor', visitor.doctor)
  if (visitor.consent) await page.check('#f-consent')
  for (const channel of visitor.marketing ?? []) await page.check(`#f-marketing${channel}`)
}

/** Every field's value as the page shows it now. */
export function formValues(page: import('playwright-core').Page): Promise<Record<string, string | boolean>> {
  return page.$eval('form.contact-form', (form) => {
    const values: Record<string, string | boolean> = {}
    for (const el of (form as HTMLFormElement).querySelectorAll<HTMLInputElement>('input:not([type=hidden]), select, textarea')) {
      if (el.type === 'checkbox') values[el.id] = el.checked
      else if (el.type === 'radio') { if (el.checked) values[el.name] = el.value }
      else values[el.id] = el.value
    }
    return values
  })
}
