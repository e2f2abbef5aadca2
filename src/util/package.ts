/** Where clinic-build's own files are, whether it runs from its sources or from its bundle. */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The clinic-build package itself: templates and browser code live here. Found by looking up for
 * package.json, as this code runs from src/ or from the CLI's bundle in .bundle/<version>/.
 */
export const packageDir = packageAbove(dirname(fileURLToPath(import.meta.url)))
export const srcDir = join(packageDir, 'src')

function packageAbove(dir: string): string {
  if (existsSync(join(dir, 'package.json'))) return dir
  const parent = dirname(dir)
  if (parent === dir) throw new Error('clinic-build: no package.json above its own code')
  return packageAbove(parent)
}
