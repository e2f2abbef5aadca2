/**
 * "Back to top" floats at the corner of the screen once the visitor has scrolled more than a
 * screen, and scrolls up smoothly (instantly under reduced motion). Keyboard users then land on
 * the skip link, as on a freshly opened page; the address gets no #top.
 */
export default function scrollToTop(link: HTMLElement): () => void {
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)')
  let frame = 0
  const update = () => {
    frame = 0
    link.classList.toggle('to-top--shown', window.scrollY > window.innerHeight)
  }
  const onScroll = () => { frame ||= requestAnimationFrame(update) }
  const onClick = (event: MouseEvent) => {
    event.preventDefault()
    window.scrollTo({ top: 0, behavior: reducedMotion.matches ? 'instant' : 'smooth' })
    // A click from the keyboard (detail 0) moves focus to the top; a pointer click just lets go.
    if (event.detail === 0) document.querySelector<HTMLElement>('.skip-link')?.focus({ preventScroll: true })
    else link.blur()
  }
  // Read the scroll position in the next frame: reading it now would force a layout in start-up.
  onScroll()
  window.addEventListener('scroll', onScroll, { passive: true })
  link.addEventListener('click', onClick)
  return () => {
    cancelAnimationFrame(frame)
    window.removeEventListener('scroll', onScroll)
    link.removeEventListener('click', onClick)
    link.classList.remove('to-top--shown')
  }
}
