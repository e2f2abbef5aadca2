/**
 * The body of a submission: form-encoded (a native post, Netlify's encoding) or JSON (the
 * island's fetch), at most 32 KB, read into plain text fields.
 */
import type { IncomingMessage } from 'node:http'
import type { FormInput } from '../shared/enquiry.ts'

/** Far above the longest valid enquiry (about 2.5 KB of fields, 4 bytes a character at worst: 10 KB). */
export const MAX_BODY_BYTES = 32 * 1024

export type Body =
  | { ok: true; fields: FormInput }
  | { ok: false; status: 400 | 413 | 415; reason: string }

export async function readEnquiryBody(req: IncomingMessage): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) return { ok: false, status: 413, reason: `the body is ${declared} bytes; at most ${MAX_BODY_BYTES} are accepted` }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, reason: `the body is over ${MAX_BODY_BYTES} bytes` }
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(text)
    const fields: Record<string, string> = {}
    for (const [key, value] of params) if (!(key in fields)) fields[key] = value
    return { ok: true, fields }
  }
  if (type === 'application/json') return fromJson(text)
  return { ok: false, status: 415, reason: `a body of type "${type || 'none'}"; send application/x-www-form-urlencoded or application/json` }
}

/** { "name": "Tan", "consent": true } -> { name: 'Tan', consent: 'yes' }; nested values are refused. */
function fromJson(text: string): Body {
  let data: unknown
  try { data = JSON.parse(text) } catch { return { ok: false, status: 400, reason: 'the body is not valid JSON' } }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { ok: false, status: 400, reason: 'the body must be a JSON object' }
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string') fields[key] = value
    else if (typeof value === 'number') fields[key] = String(value)
    else if (typeof value === 'boolean') fields[key] = value ? 'yes' : ''
    else if (value !== null) return { ok: false, status: 400, reason: `the field "${key}" must be text` }
  }
  return { ok: true, fields }
}
