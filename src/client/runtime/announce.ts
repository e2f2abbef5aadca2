/** A polite live region that reads out the title of each page a navigation shows. */
export function announcer(): (message: string) => void {
  const region = document.createElement('div')
  region.className = 'visually-hidden'
  region.setAttribute('aria-live', 'polite')
  region.setAttribute('aria-atomic', 'true')
  region.setAttribute('data-persist', '')
  document.body.append(region)
  return (message) => {
    // Emptied first and filled a moment later, so that the same title is read out again.
    region.textContent = ''
    setTimeout(() => { region.textContent = message }, 100)
  }
}
