/**
 * Carousel (WAI-ARIA Authoring Practices, auto-rotating): two slides per view (one below 768 px),
 * a 500 ms slide (site.css), and an automatic advance 2000 ms after each slide has finished
 * moving, rewinding to the start after the last. Rotation
 * - is off from the start under `prefers-reduced-motion: reduce`;
 * - stops when keyboard focus enters the carousel, and when the visitor uses previous, next or a
 *   swipe; only the rotation button starts it again;
 * - waits while the pointer is over the carousel or the tab is hidden.
 * Slides out of view are inert, so Tab reaches only what is shown. Without JavaScript the slides
 * are a horizontally scrollable row.
 */
const DELAY_MS = 2000
const SWIPE_PX = 40

export default function carousel(root: HTMLElement): () => void {
  const $ = <T extends HTMLElement>(selector: string) => root.querySelector<T>(selector)!
  const controls = $('.carousel__controls')
  const rotation = $<HTMLButtonElement>('.carousel__rotation')
  const rotationLabel = $('.carousel__rotation-label')
  const prev = $<HTMLButtonElement>('.carousel__prev')
  const next = $<HTMLButtonElement>('.carousel__next')
  const viewport = $('.carousel__viewport')
  const track = $('.carousel__track')
  const slides = [...track.children] as HTMLElement[]
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)')
  const twoPerView = matchMedia('(min-width: 768px)')

  let index = 0
  let playing = false
  let hovered = false
  let moving = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let settle: ReturnType<typeof setTimeout> | undefined

  const perView = () => (twoPerView.matches ? 2 : 1)
  const lastIndex = () => Math.max(0, slides.length - perView())

  /** Moves the track to `index` and lets only the slides in view take focus. */
  const place = () => {
    const offset = slides[index]!.offsetLeft - slides[0]!.offsetLeft
    track.style.transform = offset ? `translateX(${-offset}px)` : ''
    slides.forEach((slide, i) => { slide.inert = i < index || i >= index + perView() })
    root.dataset.index = String(index)
  }

  const schedule = () => {
    clearTimeout(timer)
    if (playing && !hovered && !moving && !document.hidden) timer = setTimeout(() => goTo(index + 1), DELAY_MS)
  }
  const arrived = () => {
    if (!moving) return
    moving = false
    clearTimeout(settle)
    root.removeAttribute('data-moving')
    schedule()
  }
  const goTo = (to: number) => {
    const target = to > lastIndex() ? 0 : to < 0 ? lastIndex() : to
    clearTimeout(timer)
    if (target === index) return schedule()
    index = target
    moving = true
    root.setAttribute('data-moving', '')
    place()
    // transitionend ends the move; the timer covers a transition that never runs (reduced motion, hidden tab).
    const duration = parseFloat(getComputedStyle(track).transitionDuration) * 1000 || 0
    settle = setTimeout(arrived, duration + 50)
  }
  const setPlaying = (on: boolean) => {
    playing = on
    root.dataset.state = on ? 'playing' : 'stopped'
    rotationLabel.textContent = (on ? root.dataset.labelStop : root.dataset.labelStart) ?? ''
    // Screen readers hear slide changes only when the visitor made them.
    track.setAttribute('aria-live', on ? 'off' : 'polite')
    if (on) schedule()
    else clearTimeout(timer)
  }
  const manual = (step: number) => { setPlaying(false); goTo(index + step) }

  const onRotation = () => setPlaying(!playing)
  const onPrev = () => manual(-1)
  const onNext = () => manual(1)
  const onTransitionEnd = (event: TransitionEvent) => { if (event.target === track) arrived() }
  const onEnter = () => { hovered = true; clearTimeout(timer) }
  const onLeave = () => { hovered = false; schedule() }
  const onFocusIn = (event: FocusEvent) => {
    const from = event.relatedTarget as Node | null
    const keyboard = (event.target as Element).matches(':focus-visible')
    if (keyboard && !(from && root.contains(from))) setPlaying(false)
  }
  const onVisibility = () => (document.hidden ? clearTimeout(timer) : schedule())
  const onMotion = () => { if (reducedMotion.matches) setPlaying(false) }
  const onLayout = () => {
    index = Math.min(index, lastIndex())
    track.style.transition = 'none'
    place()
    void track.offsetWidth // apply the new position before the transition returns
    track.style.transition = ''
  }
  let swipeFrom: { x: number; y: number } | undefined
  const onPointerDown = (event: PointerEvent) => { if (event.pointerType !== 'mouse') swipeFrom = { x: event.clientX, y: event.clientY } }
  const onPointerUp = (event: PointerEvent) => {
    if (!swipeFrom) return
    const dx = event.clientX - swipeFrom.x
    const dy = event.clientY - swipeFrom.y
    swipeFrom = undefined
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) manual(dx < 0 ? 1 : -1)
  }

  const resize = new ResizeObserver(onLayout)
  const listeners: Array<[EventTarget, string, (event: never) => void]> = [
    [rotation, 'click', onRotation], [prev, 'click', onPrev], [next, 'click', onNext],
    [track, 'transitionend', onTransitionEnd], [root, 'mouseenter', onEnter], [root, 'mouseleave', onLeave],
    [root, 'focusin', onFocusIn], [document, 'visibilitychange', onVisibility], [reducedMotion, 'change', onMotion],
    [viewport, 'pointerdown', onPointerDown], [viewport, 'pointerup', onPointerUp], [viewport, 'pointercancel', () => { swipeFrom = undefined }],
  ]
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener as EventListener)
  resize.observe(viewport)
  root.classList.add('carousel--enhanced')
  controls.hidden = false
  place()
  setPlaying(!reducedMotion.matches)

  return () => {
    clearTimeout(timer)
    clearTimeout(settle)
    resize.disconnect()
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener as EventListener)
    root.classList.remove('carousel--enhanced')
    controls.hidden = true
    track.style.transform = ''
    track.removeAttribute('aria-live')
    for (const slide of slides) slide.inert = false
  }
}
