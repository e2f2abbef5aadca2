/**
 * CloudFront's documented limits on what the build writes for it: each function's code at most
 * 10 KB; the KeyValueStore import file at most 5 MB, each key at most 512 characters and each
 * value at most 1,024 ("File format for key-value pairs", CloudFront Developer Guide). Pure:
 * `sizeOf` and `textOf` give a built file's bytes and text (undefined when there is none).
 */
import { CLOUDFRONT_LIMIT, KEY_VALUE_STORE_FILE, KEY_VALUE_STORE_LIMITS, type KeyValue } from '../deploy/cloudfront.ts'
import type { Diagnostic } from '../types.ts'

type Severity = Diagnostic['severity']

export function checkCloudFront(files: string[], sizeOf: (path: string) => number, textOf: (path: string) => string | undefined, severity: Severity): Diagnostic[] {
  const functions = files.filter((f) => f.startsWith('_cloudfront/') && f.endsWith('.js')).flatMap((file) => functionSize(file, sizeOf(file), severity))
  const store = textOf(KEY_VALUE_STORE_FILE)
  return [...functions, ...(store === undefined ? [] : keyValueStore(sizeOf(KEY_VALUE_STORE_FILE), store, severity))]
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

function functionSize(file: string, bytes: number, severity: Severity): Diagnostic[] {
  if (bytes <= CLOUDFRONT_LIMIT) return []
  return [{
    code: 'CloudFrontFunctionTooLarge', severity, file,
    message: `This CloudFront Function is ${kb(bytes)}; CloudFront accepts at most ${CLOUDFRONT_LIMIT / 1024} KB.`,
    hint: 'The functions hold the security headers, not the pages: a policy with many inline-script hashes makes them grow. Move inline scripts into the bundle.',
  }]
}

function keyValueStore(bytes: number, text: string, severity: Severity): Diagnostic[] {
  const file = KEY_VALUE_STORE_FILE
  const { fileBytes, keyCharacters, valueCharacters } = KEY_VALUE_STORE_LIMITS
  const found: Diagnostic[] = []
  if (bytes > fileBytes) {
    found.push({
      code: 'KeyValueStoreTooLarge', severity, file,
      message: `The KeyValueStore file is ${(bytes / 1024 / 1024).toFixed(2)} MB; CloudFront imports at most ${fileBytes / 1024 / 1024} MB.`,
      hint: 'It holds one line for each page. Shorten the pages\' addresses (their slugs), or deploy to a host that serves index.html by itself (Netlify, Cloudflare Pages).',
    })
  }
  let entries: KeyValue[]
  try {
    entries = (JSON.parse(text) as { data: KeyValue[] }).data
  } catch {
    return [...found, { code: 'KeyValueStoreUnreadable', severity, file, message: 'The KeyValueStore file is not the JSON the build writes.', hint: 'Build the site again.' }]
  }
  const length = (s: string) => [...s].length
  for (const { key, value } of entries) {
    if (length(key) > keyCharacters) {
      found.push({ code: 'KeyValueStoreKeyTooLong', severity, file, message: `The address ${key.slice(0, 60)}… has ${length(key)} characters; a KeyValueStore key may have at most ${keyCharacters}.`, hint: 'Give the page a shorter slug.' })
    }
    if (length(value) > valueCharacters) {
      found.push({ code: 'KeyValueStoreValueTooLong', severity, file, message: `The file of ${key.slice(0, 60)} has ${length(value)} characters in its name; a KeyValueStore value may have at most ${valueCharacters}.`, hint: 'Give the page a shorter slug.' })
    }
  }
  return found
}
