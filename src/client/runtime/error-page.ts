/**
 * Error states drawn in place of the main content, in the page's language, with the markup of
 * the server-rendered pages: a failure status answered by the server, and the last resort when
 * even the error page cannot be shown.
 */
import { format, readData } from './data.ts'

type Child = Node | string

function element(tag: string, className: string, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag)
  if (className) node.className = className
  node.append(...children)
  return node
}

function homeLink(className: string, label: string): HTMLElement {
  const link = element('a', className, label)
  link.setAttribute('href', readData()?.home ?? '/')
  return link
}

function contentArea(): HTMLElement {
  const main = document.querySelector('main')
  if (!main) throw new Error('The page has no <main> element')
  return main
}

/** A page whose title is the error's message (default: "Error") and that states its status. */
export function showError(status = 500, message?: string): void {
  const data = readData()
  if (!data) throw new Error('The page has no runtime data')
  const title = message || data.text.errorTitle
  contentArea().replaceChildren(
    element('div', 'banner', element('div', 'wrap', element('h1', '', title))),
    element('div', 'wrap prose',
      element('p', '', format(data.text.errorStatus, { status })),
      element('p', '', homeLink('button', data.text.backHome))),
  )
  document.title = `${title} | ${data.siteName}`
}

/** The last resort: the error page itself could not be shown. Never throws. */
export function showFallback(error: unknown): void {
  const text = readData()?.text
  const details = error instanceof Error ? error.message : String(error)
  const title = text?.errorFallback ?? details
  const box = element('div', 'wrap prose',
    element('h1', '', title),
    element('p', '', text?.errorFallbackText ?? ''),
    element('p', '', text ? format(text.errorDetails, { details }) : details),
    element('p', '', homeLink('', text?.errorFallbackHome ?? (readData()?.home ?? '/'))))
  const main = document.querySelector('main')
  if (main) main.replaceChildren(box)
  else document.body.prepend(box)
  document.title = title
}

/** An error state is no page of the navigation: nothing in it is the current page. */
export function clearCurrentLinks(): void {
  for (const link of document.querySelectorAll('header [aria-current]')) link.removeAttribute('aria-current')
}
