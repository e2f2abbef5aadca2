/**
 * Hydration islands: server markup marked `data-island="<name>"` is enhanced by a small module
 * loaded only on pages that have such an element. Each island module default-exports
 * `(element) => teardown`, so a page swap can stop timers and listeners before the markup goes.
 * The registry key is the module's file name (src/client/islands/<name>.ts): the build summary
 * relies on that to count each page's JavaScript.
 *
 * esbuild splits every `import()` below into its own content-hashed chunk.
 */
import type { Island } from './islands/island.ts'

const loaders: Record<string, () => Promise<{ default: Island }>> = {
  accordion: () => import('./islands/accordion.ts'),
  carousel: () => import('./islands/carousel.ts'),
  'contact-form': () => import('./islands/contact-form.ts'),
  map: () => import('./islands/map.ts'),
  'opening-hours': () => import('./islands/opening-hours.ts'),
  'scroll-to-top': () => import('./islands/scroll-to-top.ts'),
  tabs: () => import('./islands/tabs.ts'),
}

/** The specification's chunk load time-out; the inline guard (chunk-guard.ts) decides what follows. */
const CHUNK_TIMEOUT = 120_000

/** Elements whose island is running (or loading), so a second mount of the same scope is harmless. */
const mounted = new WeakSet<HTMLElement>()

/**
 * Starts every island inside `scope` that is not running yet; the returned function tears down
 * the ones this call started.
 */
export function mountIslands(scope: ParentNode): () => void {
  const teardowns: Array<() => void> = []
  const started: HTMLElement[] = []
  const timers: ReturnType<typeof setTimeout>[] = []
  let stopped = false
  for (const element of scope.querySelectorAll<HTMLElement>('[data-island]')) {
    const load = loaders[element.dataset.island!]
    if (!load || mounted.has(element)) continue
    mounted.add(element)
    started.push(element)
    // Each chunk is requested in a task of its own: an import() costs a millisecond or more of
    // main thread, and the page's start-up must stay one short task however many islands it has.
    timers.push(setTimeout(() => {
      // A chunk that neither arrives nor fails would leave the island inert for good.
      const timeout = setTimeout(() => { if (!stopped) dispatchEvent(new Event('chunk-timeout')) }, CHUNK_TIMEOUT)
      timers.push(timeout)
      load().then(({ default: island }) => {
        clearTimeout(timeout)
        if (stopped) return
        const teardown = island(element)
        if (teardown) teardowns.push(teardown)
        element.setAttribute('data-island-ready', '')
      })
    }))
  }
  return () => {
    stopped = true
    for (const timer of timers) clearTimeout(timer)
    for (const teardown of teardowns.splice(0)) teardown()
    for (const element of started) {
      mounted.delete(element)
      element.removeAttribute('data-island-ready')
    }
  }
}
