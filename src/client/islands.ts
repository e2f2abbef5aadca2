/**
 * Hydration islands: server markup marked `data-island="<name>"` is enhanced by a small module
 * loaded only on pages that have such an element. Each island module default-exports
 * `(element) => teardown`, so a page swap can stop timers and listeners before the markup goes.
 *
 * esbuild splits every `import()` below into its own content-hashed chunk.
 */
export type Island = (element: HTMLElement) => (() => void) | void

const loaders: Record<string, () => Promise<{ default: Island }>> = {
  // Filled in by the island modules as they land, e.g. carousel: () => import('./islands/carousel.ts')
  'contact-form': () => import('./islands/contact-form.ts'),
}

/** Starts every island inside `scope`; the returned function tears them all down. */
export function mountIslands(scope: ParentNode): () => void {
  const teardowns: Array<() => void> = []
  let stopped = false
  for (const element of scope.querySelectorAll<HTMLElement>('[data-island]')) {
    const load = loaders[element.dataset.island!]
    if (!load) continue
    load().then(({ default: island }) => {
      if (stopped) return
      const teardown = island(element)
      if (teardown) teardowns.push(teardown)
    })
  }
  return () => {
    stopped = true
    for (const teardown of teardowns.splice(0)) teardown()
  }
}
