/** Reads the page's runtime data block (see src/shared/runtime-data.ts). */
import { RUNTIME_DATA_ID, type RuntimeData } from '../../shared/runtime-data.ts'

/** The data of a document, by default the one on screen; undefined when it is not one of our pages. */
export function readData(doc: Document = document): RuntimeData | undefined {
  const text = doc.getElementById(RUNTIME_DATA_ID)?.textContent
  try {
    return text ? (JSON.parse(text) as RuntimeData) : undefined
  } catch {
    return undefined
  }
}

/** Fills `{name}` placeholders: format('error {status}', { status: 500 }) -> 'error 500' */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole))
}
