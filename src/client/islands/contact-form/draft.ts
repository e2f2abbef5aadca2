/**
 * The visitor's draft, kept in sessionStorage while they type, so that a reload, a failed
 * submission or a language switch never empties the form. Hidden fields and the honeypot are
 * not kept; a browser that refuses storage (private modes) simply keeps no draft.
 */
import { HONEYPOT_FIELD } from '../../../shared/enquiry.ts'

const KEY = 'clinic-build:enquiry-draft'

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
      attempt(() => sessionStorage.setItem(KEY, JSON.stringify(draft)))
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
    clear(): void {
      attempt(() => sessionStorage.removeItem(KEY))
    },
  }
}

function attempt<T>(run: () => T): T | undefined {
  try { return run() } catch { return undefined }
}
