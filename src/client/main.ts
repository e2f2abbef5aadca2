/**
 * The browser runtime: enhancements of the server-rendered pages (menu, islands) and navigation
 * between pages without full page loads (runtime/).
 */
import { enableWebFonts } from './fonts.ts'
import { mountIslands } from './islands.ts'
import { mobileMenu } from './menu.ts'
import { startRuntime } from './runtime/start.ts'

enableWebFonts()
startRuntime(() => {
  const teardowns = [mobileMenu(), mountIslands(document)]
  return () => { for (const teardown of teardowns) teardown() }
})
