/**
 * Bytes of a source file -> the text every later stage sees, the same whatever machine and editor
 * saved it: UTF-8 with or without a byte-order mark, UTF-16 with one, and any line endings (CRLF
 * from Windows, CR alone from old Mac editors, or a mix) become UTF-8 text with "\n" endings.
 * Other encodings (GBK, Latin-1, …) cannot be told apart reliably, so they are refused. Pure.
 */
import { problem } from '../errors.ts'
import type { Diagnostic } from '../types.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** The text of a file, or why it cannot be read as text. Example: [0xEF, 0xBB, 0xBF, 0x61, 0x0D, 0x0A] -> 'a\n' */
export function decodeSource(bytes: Uint8Array, path: string): { text: string } | { problem: Diagnostic } {
  const utf16 = utf16Encoding(bytes)
  if (utf16) return { text: normaliseLineEndings(new TextDecoder(utf16).decode(bytes)) }
  try {
    return { text: normaliseLineEndings(utf8.decode(bytes)) }
  } catch {
    const { byte, line, column } = firstInvalidByte(bytes)
    return { problem: problem('NotUtf8', [`0x${byte.toString(16).toUpperCase().padStart(2, '0')}`], { file: path, line, column }) }
  }
}

export const normaliseLineEndings = (text: string): string => text.replace(/\r\n?/g, '\n')

/** UTF-16 by its byte-order mark (TextDecoder drops the mark). */
function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  return undefined
}

/** Where the first byte that is not UTF-8 is: its value, and its line and column in the text before it. */
function firstInvalidByte(bytes: Uint8Array): { byte: number; line: number; column: number } {
  // A lenient decoder puts U+FFFD where a byte is not UTF-8; a U+FFFD written in the file is EF BF BD.
  const lenient = new TextDecoder().decode(bytes)
  for (let index = lenient.indexOf('\uFFFD'); index !== -1; index = lenient.indexOf('\uFFFD', index + 1)) {
    const before = lenient.slice(0, index)
    const offset = Buffer.byteLength(before)
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) continue
    const lines = normaliseLineEndings(before).split('\n')
    return { byte: bytes[offset]!, line: lines.length, column: lines.at(-1)!.length + 1 }
  }
  return { byte: bytes[0] ?? 0, line: 1, column: 1 }
}
