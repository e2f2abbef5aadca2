/**
 * The contact form island: the shared validator's messages in the page's language, a draft kept
 * while typing, submission with fetch (one at a time), the thank-you page of the page's language
 * on success, and on failure a message that keeps every field and offers a retry, WhatsApp and
 * a phone call.
 */
import { ANY_DOCTOR, fill, NOT_SURE, SUBMISSION_FIELD, validateEnquiry, type Choices, type FormInput } from '../../shared/enquiry.ts'
import type { Island } from './island.ts'
import { formDraft } from './contact-form/draft.ts'
import { errorDisplay } from './contact-form/errors.ts'
import { sendEnquiry, type Outcome } from './contact-form/send.ts'

const contactForm: Island = (element) => {
  const form = element as HTMLFormElement
  const messages = JSON.parse(form.dataset.messages ?? '{}') as Record<string, string>
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const progress = form.querySelector<HTMLElement>('.contact-form__progress')!
  const problem = form.querySelector<HTMLElement>('.contact-form__problem')!
  const retry = problem.querySelector<HTMLButtonElement>('[data-retry]')!
  const choices = choicesOf(form)
  const draft = formDraft(form)
  const errors = errorDisplay(form, messages)
  let sending = false
  let sent = false

  draft.restore()
  form.noValidate = true // the shared validator speaks the page's language; native checks stay for visitors without JavaScript

  const inputOf = (): FormInput => Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]))

  function busy(on: boolean): void {
    sending = on
    form.setAttribute('aria-busy', String(on))
    button.setAttribute('aria-disabled', String(on))
    button.textContent = messages[on ? 'form.sending' : 'form.submit'] ?? button.textContent
    progress.textContent = on ? messages['form.status.sending'] ?? '' : ''
  }

  function report(outcome: Exclude<Outcome, { kind: 'sent' | 'invalid' }>): void {
    const status = 'status' in outcome ? outcome.status : ''
    problem.querySelector('p')!.textContent = fill(messages[`form.status.${outcome.kind}`] ?? '', { status })
    problem.hidden = false
    problem.focus()
  }

  async function onSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    if (sending || sent) return
    const input = inputOf()
    const result = validateEnquiry(input, choices)
    if (result.kind === 'invalid') { errors.show(result.errors); return }
    errors.clear()
    problem.hidden = true
    busy(true)
    const outcome = await sendEnquiry(form.action, { ...input, [SUBMISSION_FIELD]: draft.submissionId() }, form.dataset.delivery ?? 'local')
    if (outcome.kind === 'sent') {
      sent = true
      draft.clear()
      form.reset() // so that the browser's Back button does not bring back a form ready to send twice
      location.assign(form.dataset.thanks ?? '/')
      return
    }
    busy(false)
    if (outcome.kind === 'invalid') errors.show(outcome.errors)
    else report(outcome)
  }

  const onEdit = () => {
    draft.save()
    errors.update(validationErrors(validateEnquiry(inputOf(), choices)))
  }
  const onRetry = () => button.click()
  /** Back from the thank-you page out of the back/forward cache: ready for a new enquiry. */
  const onPageShow = (event: PageTransitionEvent) => {
    if (!event.persisted || !sent) return
    sent = false
    busy(false)
  }
  const submit = (event: Event) => { void onSubmit(event as SubmitEvent) }

  form.addEventListener('submit', submit)
  form.addEventListener('input', onEdit)
  form.addEventListener('change', onEdit)
  retry.addEventListener('click', onRetry)
  window.addEventListener('pageshow', onPageShow)
  return () => {
    form.removeEventListener('submit', submit)
    form.removeEventListener('input', onEdit)
    form.removeEventListener('change', onEdit)
    retry.removeEventListener('click', onRetry)
    window.removeEventListener('pageshow', onPageShow)
    errors.stop()
  }
}

export default contactForm

/** The values the form offers: exactly the options rendered in its select boxes. */
function choicesOf(form: HTMLFormElement): Choices {
  const values = (name: string, extra: string) => [...form.querySelectorAll<HTMLOptionElement>(`select[name="${name}"] option`)]
    .map((o) => o.value).filter((v) => v !== '' && v !== extra)
  return { procedures: values('procedure', NOT_SURE), doctors: values('doctor', ANY_DOCTOR) }
}

const validationErrors = (result: ReturnType<typeof validateEnquiry>) => (result.kind === 'invalid' ? result.errors : [])
