/**
 * Field errors on the page: the message beside each field (linked with aria-describedby and
 * marked aria-invalid) and the summary above the form, whose links move focus to the field.
 * Every message is set as text, never as HTML.
 */
import { errorMessage, type FieldError } from '../../../shared/enquiry.ts'

type Messages = Readonly<Record<string, string>>
type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement

export function errorDisplay(form: HTMLFormElement, messages: Messages) {
  const summary = form.querySelector<HTMLElement>('.error-summary')!
  const list = summary.querySelector('ul')!
  let shown: FieldError[] = []

  const controlsOf = (field: string): Control[] => {
    const found = form.elements.namedItem(field)
    if (!found) return []
    return found instanceof RadioNodeList ? ([...found] as Control[]) : [found as Control]
  }
  const messageOf = (field: string) => form.querySelector<HTMLElement>(`#f-${field}-error`)

  function mark(field: string, text: string | undefined): void {
    const message = messageOf(field)
    if (message) { message.textContent = text ?? ''; message.hidden = text === undefined }
    for (const control of controlsOf(field)) {
      const described = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== message?.id)
      if (text !== undefined) {
        control.setAttribute('aria-invalid', 'true')
        if (message) described.push(message.id)
      } else {
        control.removeAttribute('aria-invalid')
      }
      if (described.length) control.setAttribute('aria-describedby', described.join(' '))
      else control.removeAttribute('aria-describedby')
    }
  }

  function render(errors: FieldError[]): void {
    for (const error of shown) mark(error.field, undefined)
    shown = errors.filter((e, i) => errors.findIndex((other) => other.field === e.field) === i)
    list.replaceChildren(...shown.map((error) => {
      const text = errorMessage(error, messages)
      mark(error.field, text)
      const link = document.createElement('a')
      link.href = `#${controlsOf(error.field)[0]?.id ?? ''}`
      link.textContent = text
      const item = document.createElement('li')
      item.append(link)
      return item
    }))
    summary.hidden = shown.length === 0
  }

  const onSummaryClick = (event: MouseEvent) => {
    const link = (event.target as Element).closest('a')
    const target = link && form.querySelector<HTMLElement>(link.hash)
    if (!target) return
    event.preventDefault()
    target.focus()
  }
  summary.addEventListener('click', onSummaryClick)

  return {
    /** Shows these errors (one per field) and moves focus to the first invalid field. */
    show(errors: FieldError[]): void {
      render(errors)
      const first = shown[0] && controlsOf(shown[0].field)[0]
      first?.focus()
    },
    /** While the visitor corrects the form: drops errors that are fixed, keeps focus where it is. */
    update(errors: FieldError[]): void {
      if (shown.length === 0) return
      const stillShown = new Set(shown.map((e) => e.field))
      render(errors.filter((e) => stillShown.has(e.field)))
    },
    clear(): void { render([]) },
    stop(): void { summary.removeEventListener('click', onSummaryClick) },
  }
}
