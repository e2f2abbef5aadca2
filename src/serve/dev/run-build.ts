/** The one place the dev server calls the build: everything in memory, drafts and untranslated pages shown. */
import { build, type BuildResult } from '../../build.ts'

export function buildPreview(root: string): Promise<BuildResult> {
  return build({ root, write: false, drafts: true, translationFallback: true })
}
