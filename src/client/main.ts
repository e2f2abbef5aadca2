/**
 * The browser runtime: enhancements of the server-rendered pages (menu, islands) and navigation
 * between pages without full page loads (runtime/).
 */
import { mountIslands } from './islands.ts'
import { mobileMenu } from './menu.ts'
import { startRuntime } from './runtime/start.ts'

startRuntime(() => {
  const teardowns = [mobileMenu(), mountIslands(document)]
  return () => { for (const teardown of teardowns) teardown() }
})
