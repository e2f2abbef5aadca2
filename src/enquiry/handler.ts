/**
 * The local enquiry endpoint that `clinic-build dev` and `serve` mount: it answers POSTs to
 * LOCAL_ENQUIRY_PATH, checks them with the form's own validator and appends each valid enquiry
 * to `<site>/.clinic/enquiries.jsonl`.
 *
 *   fetch (Accept: application/json)  -> 200 { ok: true, thanks }, 422 { ok: false, errors }, 4xx/5xx { ok: false, error }
 *   native post                       -> 303 to the thank-you page of the form's language, or a page
 *                                        in that language saying what to correct (422) or what failed
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  errorMessage, LOCAL_ENQUIRY_PATH, SUBMISSION_FIELD, SUBMISSION_ID, validateEnquiry, type Enquiry, type FormInput,
} from '../shared/enquiry.ts'
import { localeUrl, splitLocale } from '../shared/urls.ts'
import type { LocaleConfig } from '../types.ts'
import { readEnquiryBody } from './body.ts'
import { oncePerSubmission } from './once.ts'
import { renderResultPage } from './page.tsx'
import { siteLoader, type EnquirySite } from './site.ts'
import { appendRecord, enquiriesFile } from './store.ts'

export type EnquiryHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>

export interface EnquiryHandlerOptions {
  /** The site folder: its content/site.yaml and locales/ are read, its .clinic/ written. */
  root: string
  /** Told when an enquiry could not be stored or the site's files have errors. */
  onError?: (message: string) => void
}

/** One line of .clinic/enquiries.jsonl. */
export interface EnquiryRecord {
  id: string
  receivedAt: string
  locale: string
  page: string
  fields: Omit<Enquiry, 'consent' | 'marketing'>
  consent: { privacyNotice: true } & Enquiry['marketing']
  /** noticeVersion() of the privacy notice the form showed, as the form sent it. */
  noticeVersion: string | null
}

export function createEnquiryHandler(options: EnquiryHandlerOptions): EnquiryHandler {
  const load = siteLoader(options.root)
  const file = enquiriesFile(options.root)
  const report = options.onError ?? ((message: string) => console.error(`clinic-build: ${message}`))
  const storeOnce = oncePerSubmission() // a retry whose first answer was lost is not stored again

  return async (req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== LOCAL_ENQUIRY_PATH) return false
    const reply = responder(req, res)
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST')
      reply.plain(405, 'The enquiry endpoint takes POST requests only.')
      return true
    }
    const loaded = await load()
    if (!loaded.ok) {
      report(`the enquiry could not be taken: the site's files have errors.\n${loaded.problems.join('\n')}`)
      reply.plain(500, `The site's files have errors, so the enquiry was not stored:\n${loaded.problems.join('\n')}`)
      return true
    }
    const context = loaded.value
    const body = await readEnquiryBody(req)
    const fields = body.ok ? body.fields : {}
    const locale = localeOf(context, fields, req)
    const page = pageOf(fields, req)
    const t = (key: string) => context.messages[locale.code]?.[key] ?? key
    const failure = (status: number, error: string, sentence: string) => reply.problem(status, { ok: false, error }, {
      site: context.site, locale, messages: context.messages[locale.code] ?? {}, lead: sentence, problems: [], entries: entriesOf(fields, t), formUrl: page || undefined,
    })

    if (!body.ok) {
      failure(body.status, body.reason, t(body.status === 413 ? 'form.result.tooLarge' : 'form.result.invalidBody'))
      return true
    }
    const thanks = localeUrl(locale.code, '/thank-you/', context.site.defaultLocale)
    const result = validateEnquiry(fields, context.choices)
    if (result.kind === 'spam') {
      reply.success(thanks) // a bot is told it worked and learns nothing; nothing is stored
      return true
    }
    if (result.kind === 'invalid') {
      const messages = context.messages[locale.code] ?? {}
      const errors = result.errors.map((e) => ({ ...e, message: errorMessage(e, messages) }))
      reply.problem(422, { ok: false, errors }, {
        site: context.site, locale, messages, lead: t('form.result.invalid'), problems: errors.map((e) => e.message),
        entries: entriesOf(fields, t), formUrl: page || undefined,
      })
      return true
    }
    const submission = SUBMISSION_ID.test(fields[SUBMISSION_FIELD] ?? '') ? fields[SUBMISSION_FIELD] : undefined
    try {
      await storeOnce(submission, () => appendRecord(file, record(result.enquiry, locale.code, page, fields)))
    } catch (error) {
      report(`an enquiry could not be written to ${file}: ${(error as Error).message}`)
      failure(500, 'the enquiry could not be stored', t('form.result.failed'))
      return true
    }
    reply.success(thanks)
    return true
  }
}

function record(enquiry: Enquiry, locale: string, page: string, fields: FormInput): EnquiryRecord {
  const { consent: _agreed, marketing, ...rest } = enquiry
  const version = fields.notice ?? ''
  return {
    id: randomUUID(),
    receivedAt: new Date().toISOString(),
    locale,
    page,
    fields: rest,
    consent: { privacyNotice: true, ...marketing },
    noticeVersion: /^[0-9a-f]{16}$/.test(version) ? version : null,
  }
}

/** The form's language: its hidden `locale` field, else the language of the page it was sent from. */
function localeOf({ site }: EnquirySite, fields: FormInput, req: IncomingMessage): LocaleConfig {
  const codes = site.locales.map((l) => l.code)
  const code = codes.includes(fields.locale ?? '') ? fields.locale! : splitLocale(pageOf(fields, req) || '/', codes, site.defaultLocale).locale
  return site.locales.find((l) => l.code === code) ?? site.locales.find((l) => l.code === site.defaultLocale)!
}

/** The path of the page the form was on: its hidden `page` field, else the Referer's path on this host. */
function pageOf(fields: FormInput, req: IncomingMessage): string {
  const isPath = (p: string) => /^\/(?!\/)[^\s\\]{0,300}$/.test(p)
  if (fields.page && isPath(fields.page)) return fields.page
  try {
    const referer = new URL(req.headers.referer ?? '')
    if (referer.host === req.headers.host && isPath(referer.pathname)) return referer.pathname
  } catch { /* no usable Referer */ }
  return ''
}

/** What the visitor typed themselves, to echo back when nothing was stored. */
function entriesOf(fields: FormInput, t: (key: string) => string): [string, string][] {
  return (['name', 'email', 'phone', 'message'] as const)
    .filter((name) => (fields[name] ?? '').trim() !== '')
    .map((name) => [t(`form.${name}`), fields[name]!])
}

/** Answers in JSON to fetch (which sends Accept: application/json), in HTML to a native post. */
function responder(req: IncomingMessage, res: ServerResponse) {
  const wantsJson = (req.headers.accept ?? '').includes('application/json')
  const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'Content-Type': `${type}; charset=utf-8`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(type === 'text/html' ? { 'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'" } : {}),
      // An unread body (413) must not be taken for the next request on this connection.
      ...(req.readableEnded ? {} : { Connection: 'close' }),
      ...headers,
    })
    res.end(body)
  }
  return {
    plain(status: number, text: string): void {
      if (wantsJson) send(status, 'application/json', JSON.stringify({ ok: false, error: text }))
      else send(status, 'text/plain', `${text}\n`)
    },
    problem(status: number, json: object, page: Parameters<typeof renderResultPage>[0]): void {
      if (wantsJson) send(status, 'application/json', JSON.stringify(json))
      else send(status, 'text/html', renderResultPage(page))
    },
    success(thanks: string): void {
      if (wantsJson) send(200, 'application/json', JSON.stringify({ ok: true, thanks }))
      else send(303, 'text/plain', `Sent. Continue at ${thanks}\n`, { Location: thanks })
    },
  }
}
