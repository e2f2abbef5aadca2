/**
 * The map on demand: no third-party frame loads until the visitor presses "show map". The frame
 * then replaces the drawn preview, lazily loaded, and takes focus so keyboard users land on it.
 */
export default function map(root: HTMLElement): () => void {
  const button = root.querySelector<HTMLButtonElement>('.map__show')
  const preview = root.querySelector<SVGElement>('.map__preview')
  const src = root.dataset.embed
  if (!button || !preview || !src) return () => {}

  const show = () => {
    const frame = document.createElement('iframe')
    frame.className = 'map__iframe'
    frame.src = src
    frame.title = root.dataset.title ?? ''
    frame.width = preview.getAttribute('width') ?? '320'
    frame.height = preview.getAttribute('height') ?? '200'
    frame.loading = 'lazy'
    frame.referrerPolicy = 'no-referrer-when-downgrade'
    frame.setAttribute('allowfullscreen', '')
    preview.replaceWith(frame)
    button.remove()
    frame.focus()
  }
  button.hidden = false
  button.addEventListener('click', show)
  return () => button.removeEventListener('click', show)
}
