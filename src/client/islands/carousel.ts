/**
 * Carousel (WAI-ARIA Authoring Practices, auto-rotating): two slides per view (one below 768 px),
 * a 500 ms slide, and an automatic advance 2000 ms after each slide has finished moving,
 * rewinding to the start after the last. Rotation
 * - is off from the start under `prefers-reduced-motion: reduce` (and slides then jump);
 * - stops when keyboard focus enters the carousel, and when the visitor uses previous, next or a
 *   swipe; only the rotation button starts it again;
 * - waits while the pointer is over the carousel or the tab is hidden.
 * Slides out of view are inert, so Tab reaches only what is shown. The slide is a Web Animation,
 * which leaves no style attribute behind. Without JavaScript the slides are a horizontally
 * scrollable row.
 */
const SLIDE_MS = 500
const DELAY_MS = 2000
const EASING = 'cubic-bezier(0.4, 0, 0.2, 1)'
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
  let motion: Animation | undefined

  const perView = () => (twoPerView.matches ? 2 : 1)
  const lastIndex = () => Math.max(0, slides.length - perView())

  /** Lets only the slides in view take focus. */
  const markInView = () => {
    slides.forEach((slide, i) => { slide.inert = i < index || i >= index + perView() })
    root.dataset.index = String(index)
  }
  /** Slides the track to `index` over `duration` ms. */
  const place = (duration: number): Animation => {
    const from = getComputedStyle(track).transform
    const to = `translateX(${slides[0]!.offsetLeft - slides[index]!.offsetLeft}px)`
    const previous = motion
    motion = track.animate([{ transform: from === 'none' ? 'translateX(0)' : from }, { transform: to }], { duration, easing: EASING, fill: 'forwards' })
    previous?.cancel()
    markInView()
    return motion
  }

  const schedule = () => {
    clearTimeout(timer)
    if (playing && !hovered && !moving && !document.hidden) timer = setTimeout(() => goTo(index + 1), DELAY_MS)
  }
  const goTo = (to: number) => {
    const target = to > lastIndex() ? 0 : to < 0 ? lastIndex() : to
    clearTimeout(timer)
    if (target === index) return schedule()
    index = target
    moving = true
    root.setAttribute('data-moving', '')
    const slide = place(reducedMotion.matches ? 0 : SLIDE_MS)
    // The next wait starts when this slide has ended (a newer slide or a teardown cancels it).
    slide.finished.then(() => {
      moving = false
      root.removeAttribute('data-moving')
      schedule()
    }, () => {})
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
    place(0)
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
    [root, 'mouseenter', onEnter], [root, 'mouseleave', onLeave],
    [root, 'focusin', onFocusIn], [document, 'visibilitychange', onVisibility], [reducedMotion, 'change', onMotion],
    [viewport, 'pointerdown', onPointerDown], [viewport, 'pointerup', onPointerUp], [viewport, 'pointercancel', () => { swipeFrom = undefined }],
  ]
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener as EventListener)
  resize.observe(viewport)
  root.classList.add('carousel--enhanced')
  controls.hidden = false
  // The first slide is in place already; measuring it here would force a layout in start-up.
  // The resize observer places the track after the first layout.
  markInView()
  setPlaying(!reducedMotion.matches)

  return () => {
    clearTimeout(timer)
    motion?.cancel()
    resize.disconnect()
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener as EventListener)
    root.classList.remove('carousel--enhanced')
    controls.hidden = true
    track.removeAttribute('aria-live')
    for (const slide of slides) slide.inert = false
  }
}
