/**
 * Sends the enquiry with fetch and says what happened. Netlify Forms take the form-encoded body
 * of a native post; the local endpoint and HTTPS form services take JSON and, asked with
 * `Accept: application/json`, answer JSON instead of a page.
 */
import { ERROR_CODES, type FieldError, type FormInput } from '../../../shared/enquiry.ts'

export type Outcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'offline' | 'network' }
  | { kind: 'rejected' | 'failed'; status: number }

/** A request that hangs is a failure the visitor can retry, not an endless "sending". */
const TIMEOUT_MS = 30_000

export async function sendEnquiry(url: string, input: FormInput, delivery: string): Promise<Outcome> {
  if (!navigator.onLine) return { kind: 'offline' }
  const fields = Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => e[1] !== undefined))
  const body: RequestInit = delivery === 'netlify'
    ? { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }
    : { headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(fields) }
  let response: Response
  try {
    response = await fetch(url, { method: 'POST', ...body, signal: AbortSignal.timeout?.(TIMEOUT_MS) })
  } catch {
    return { kind: navigator.onLine ? 'network' : 'offline' }
  }
  if (response.ok) return { kind: 'sent' }
  const errors = await fieldErrors(response)
  if (errors.length > 0) return { kind: 'invalid', errors }
  return { kind: response.status < 500 ? 'rejected' : 'failed', status: response.status }
}

/** The local endpoint's answer to invalid fields: { errors: [{ field, code, vars }] }. */
async function fieldErrors(response: Response): Promise<FieldError[]> {
  if (!(response.headers.get('Content-Type') ?? '').includes('json')) return []
  try {
    const { errors } = await response.json() as { errors?: unknown }
    if (!Array.isArray(errors)) return []
    return errors.filter((e): e is FieldError => typeof e?.field === 'string' && (ERROR_CODES as readonly string[]).includes(e?.code))
  } catch {
    return []
  }
}
