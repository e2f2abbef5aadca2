/** The one place the dev server calls the build: everything in memory, drafts and untranslated pages shown. */
import { build, type BuildResult } from '../../build.ts'
import { emptyCache } from '../../cache.ts'

/** Kept for the life of the build worker, so a save re-parses and re-renders only what it changed. */
const cache = emptyCache()

export function buildPreview(root: string): Promise<BuildResult> {
  return build({ root, write: false, drafts: true, translationFallback: true, cache })
}
