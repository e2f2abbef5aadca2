/** The version of the privacy notice a visitor agreed to, recorded with each enquiry. */
import { createHash } from 'node:crypto'

/**
 * The first 16 hex digits of the SHA-256 of the notice's words as the page shows them (heading,
 * text and the consent box's label, joined by newlines): any change of wording is a new version.
 */
export function noticeVersion(words: readonly string[]): string {
  return createHash('sha256').update(words.join('\n')).digest('hex').slice(0, 16)
}
