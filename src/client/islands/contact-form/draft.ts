/**
 * The visitor's draft, kept in sessionStorage while they type, so that a reload, a failed
 * submission or a language switch never empties the form. Hidden fields and the honeypot are
 * not kept; a browser that refuses storage (private modes) simply keeps no draft.
 */
import { HONEYPOT_FIELD } from '../../../shared/enquiry.ts'

const KEY = 'clinic-build:enquiry-draft'
const ID_KEY = 'clinic-build:enquiry-submission'

type Draft = Record<string, string | boolean>

export function formDraft(form: HTMLFormElement) {
  const kept = () => [...form.elements].filter((el): el is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement =>
    'name' in el && typeof el.name === 'string' && el.name !== '' && el.name !== HONEYPOT_FIELD && (el as HTMLInputElement).type !== 'hidden')

  return {
    save(): void {
      const draft: Draft = {}
      for (const el of kept()) {
        if (el instanceof HTMLInputElement && el.type === 'checkbox') draft[el.name] = el.checked
        else if (el instanceof HTMLInputElement && el.type === 'radio') { if (el.checked) draft[el.name] = el.value }
        else draft[el.name] = el.value
      }
      attempt(() => {
        sessionStorage.setItem(KEY, JSON.stringify(draft))
        sessionStorage.removeItem(ID_KEY) // an edited enquiry is a new one, even if an earlier attempt arrived
      })
    },
    restore(): void {
      const draft = attempt(() => JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Draft | null)
      if (!draft || typeof draft !== 'object') return
      for (const el of kept()) {
        const value = draft[el.name]
        if (value === undefined) continue
        if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = value === true
        else if (el instanceof HTMLInputElement && el.type === 'radio') el.checked = el.value === value
        else if (el instanceof HTMLSelectElement) { if ([...el.options].some((o) => o.value === value && !o.disabled)) el.value = String(value) }
        else el.value = String(value)
      }
    },
    /** The id of this enquiry's attempts: the same across retries and reloads until it is sent or edited. */
    submissionId(): string {
      const kept = attempt(() => sessionStorage.getItem(ID_KEY))
      if (kept) return kept
      const id = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')
      attempt(() => sessionStorage.setItem(ID_KEY, id))
      return id
    },
    clear(): void {
      attempt(() => { sessionStorage.removeItem(KEY); sessionStorage.removeItem(ID_KEY) })
    },
  }
}

function attempt<T>(run: () => T): T | undefined {
  try { return run() } catch { return undefined }
}
