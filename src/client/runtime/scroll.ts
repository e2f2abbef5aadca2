/**
 * Scroll positions per history entry, kept in history.state. The runtime restores them itself
 * (manual restoration) while it runs; on leaving the document it hands restoration back to the
 * browser, so a reload or a return from another site restores natively, as Nuxt did.
 */
export interface Position { x: number; y: number }

let pendingSave: ReturnType<typeof setTimeout> | undefined

export function manageScroll(): void {
  const manual = () => { history.scrollRestoration = 'manual' }
  // Only after load: the browser's own restoration of a reload happens until then.
  // After load, too, the position is read: while the page loads, that would pull the first
  // layout into the runtime's own start-up, one long task instead of two short ones.
  const loaded = () => {
    manual()
    // WebKit may leave a reloaded page at the top (it has, under load), having taken the
    // restoration that was manual while the page ran; the position last saved is put back,
    // before this load's own save.
    const left = savedPosition(history.state)
    if (reloaded() && left && scrollX === 0 && scrollY === 0 && (left.x !== 0 || left.y !== 0)) restoreScroll(left, '')
    savePosition()
  }
  if (document.readyState === 'complete') loaded()
  else addEventListener('load', loaded, { once: true })
  addEventListener('pageshow', (event) => {
    manual()
    // Back to a page kept in the back/forward cache: it should be where the visitor left it. WebKit
    // brings it back at the top when restoration was manual while the page ran (a setting made
    // on pagehide comes too late for it); the position last saved is put back, before the save
    // that WebKit's move to the top has set off.
    const left = savedPosition(history.state)
    if (event.persisted && left && (left.x !== scrollX || left.y !== scrollY)) restoreScroll(left, '')
  })
  // Not a save of the position here: a history.replaceState while leaving makes Chromium forget
  // the position it restores on a reload. The save 100 ms after scrolling stops has made it.
  addEventListener('pagehide', () => { history.scrollRestoration = 'auto' })
  addEventListener('scroll', () => {
    clearTimeout(pendingSave)
    pendingSave = setTimeout(savePosition, 100)
  }, { passive: true })
}

const reloaded = () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type === 'reload'

/** Records the current position in the current history entry. */
export function savePosition(): void {
  clearTimeout(pendingSave)
  history.replaceState({ ...history.state, scroll: { x: scrollX, y: scrollY } }, '')
}

/** Drops a save still waiting: after popstate the current entry is already another one. */
export function cancelSave(): void {
  clearTimeout(pendingSave)
}

export function savedPosition(state: unknown): Position | undefined {
  return (state as { scroll?: Position } | null)?.scroll
}

/** A saved position, else the `#anchor` (scrollIntoView honours scroll-margin-top), else the top. */
export function restoreScroll(saved: Position | undefined, hash: string): void {
  if (saved) return scrollTo({ left: saved.x, top: saved.y, behavior: 'instant' })
  const target = hash ? document.getElementById(safeDecode(hash.slice(1))) : null
  if (target) target.scrollIntoView({ behavior: 'instant' })
  else scrollTo({ left: 0, top: 0, behavior: 'instant' })
}

function safeDecode(text: string): string {
  try { return decodeURIComponent(text) } catch { return text }
}
