/**
 * The header's disclosure buttons: the menu button that folds the navigation away on small
 * screens, and the button beside "Services" that opens the list of services. Without JavaScript
 * the navigation is a plain open list (the buttons show only under `.js`, which the inline guard
 * sets on <html> before the first paint).
 *
 * Listeners sit on the document, so they work with whichever header is on screen; the runtime
 * starts this on every page shown and calls the returned teardown before the next. Escape closes
 * what is open and returns focus to its button; a click elsewhere, or focus leaving the open
 * part, closes it too.
 */
const BUTTONS = '.menu-button, .submenu-button'

export function mobileMenu(): () => void {
  const openButtons = () => [...document.querySelectorAll<HTMLButtonElement>(`:is(${BUTTONS})[aria-expanded="true"]`)]
  const setOpen = (button: HTMLButtonElement, open: boolean) => button.setAttribute('aria-expanded', String(open))
  const region = (button: HTMLButtonElement) => {
    const controlled = document.getElementById(button.getAttribute('aria-controls') ?? '')
    return button.classList.contains('submenu-button') ? button.parentElement : controlled
  }

  const onClick = (event: MouseEvent) => {
    const target = event.target as Element
    const button = target.closest?.<HTMLButtonElement>(BUTTONS)
    if (button) { setOpen(button, button.getAttribute('aria-expanded') !== 'true'); return }
    // A click outside an open part, or on a link inside it, closes it.
    for (const open of openButtons()) {
      const inside = region(open)?.contains(target)
      if (!inside || target.closest('a')) setOpen(open, false)
    }
  }
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return
    const open = openButtons()
    // The innermost open part closes first (the list of services inside the open menu).
    const button = open.find((b) => b.classList.contains('submenu-button')) ?? open[0]
    if (!button) return
    setOpen(button, false)
    button.focus()
  }
  const onFocusOut = (event: FocusEvent) => {
    const to = event.relatedTarget as Node | null
    if (!to) return
    for (const open of openButtons()) if (!region(open)?.contains(to) && open !== to) setOpen(open, false)
  }
  document.addEventListener('click', onClick)
  document.addEventListener('keydown', onKey)
  document.addEventListener('focusout', onFocusOut)
  return () => {
    document.removeEventListener('click', onClick)
    document.removeEventListener('keydown', onKey)
    document.removeEventListener('focusout', onFocusOut)
  }
}
