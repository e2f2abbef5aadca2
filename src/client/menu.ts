/**
 * On small screens the navigation folds behind a menu button; without JavaScript it stays open.
 * Runs on every page shown; returns its teardown (the header is replaced on navigation).
 */
export function mobileMenu(): () => void {
  const button = document.querySelector<HTMLButtonElement>('.menu-button')
  const nav = document.getElementById('site-nav')
  if (!button || !nav) return () => {}
  button.hidden = false
  document.documentElement.classList.add('has-menu')
  const set = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open))
    nav.classList.toggle('is-open', open)
  }
  button.addEventListener('click', () => set(button.getAttribute('aria-expanded') !== 'true'))
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && button.getAttribute('aria-expanded') === 'true') { set(false); button.focus() }
  }
  document.addEventListener('keydown', closeOnEscape)
  return () => document.removeEventListener('keydown', closeOnEscape)
}
