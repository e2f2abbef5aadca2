/**
 * Accordion (WAI-ARIA Authoring Practices): each `.accordion__heading` gets a button that shows
 * or hides the `.accordion__panel` after it. Enter and Space toggle; Up, Down, Home and End move
 * between the buttons. Closed panels are `hidden="until-found"`, so the browser's find-in-page
 * still reaches them and opens them. Without JavaScript every answer stays visible.
 */
export default function accordion(root: HTMLElement): () => void {
  const items = [...root.querySelectorAll<HTMLElement>('.accordion__item')].flatMap((item) => {
    const heading = item.querySelector<HTMLElement>('.accordion__heading')
    const panel = item.querySelector<HTMLElement>('.accordion__panel')
    return heading && panel ? [{ heading, panel, button: document.createElement('button') }] : []
  })

  const setOpen = ({ button, panel }: (typeof items)[number], open: boolean) => {
    button.setAttribute('aria-expanded', String(open))
    if (open) panel.removeAttribute('hidden')
    else panel.setAttribute('hidden', 'until-found')
  }

  for (const item of items) {
    const { heading, panel, button } = item
    button.type = 'button'
    button.className = 'accordion__trigger'
    button.id = `${heading.id}-button`
    button.setAttribute('aria-controls', panel.id)
    button.append(...heading.childNodes)
    heading.append(button)
    panel.setAttribute('role', 'region')
    panel.setAttribute('aria-labelledby', button.id)
    setOpen(item, false)
  }

  const onClick = (event: Event) => {
    const item = items.find((i) => i.button.contains(event.target as Node))
    if (item) setOpen(item, item.button.getAttribute('aria-expanded') !== 'true')
  }
  const onKey = (event: KeyboardEvent) => {
    const at = items.findIndex((i) => i.button === event.target)
    if (at < 0) return
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key]
    if (to === undefined) return
    event.preventDefault()
    items[(to + items.length) % items.length]!.button.focus()
  }
  // Find-in-page found text in a closed panel: open it.
  const onFound = (event: Event) => {
    const item = items.find((i) => i.panel === event.target)
    if (item) setOpen(item, true)
  }
  root.addEventListener('click', onClick)
  root.addEventListener('keydown', onKey)
  root.addEventListener('beforematch', onFound)
  root.classList.add('accordion--enhanced')

  return () => {
    root.removeEventListener('click', onClick)
    root.removeEventListener('keydown', onKey)
    root.removeEventListener('beforematch', onFound)
    root.classList.remove('accordion--enhanced')
    for (const { heading, panel, button } of items) {
      heading.append(...button.childNodes)
      button.remove()
      panel.removeAttribute('hidden')
      panel.removeAttribute('role')
      panel.removeAttribute('aria-labelledby')
    }
  }
}
