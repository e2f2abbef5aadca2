/** The one place the dev server calls the build: everything in memory, drafts and untranslated pages shown. */
import { build, type BuildResult } from '../../build.ts'
import { emptyCache } from '../../cache.ts'
import { packageDir } from '../../config.ts'
import { readProject, rereadProject } from '../../read.ts'
import type { Project } from '../../types.ts'

/** Kept for the life of the build worker, so a save re-reads, re-parses and re-renders only what it changed. */
const cache = emptyCache()
let project: Project | undefined

export type PreviewResult = BuildResult & Pick<Project, 'staticVersions'>

/** `changed`: the paths saved since the last build (relative to the site, or the package for templates/). */
export async function buildPreview(root: string, changed: string[]): Promise<PreviewResult> {
  project = project ? await rereadProject(project, changed, packageDir) : await readProject(root, packageDir)
  const result = await build({ root, project, write: false, drafts: true, translationFallback: true, cache })
  return { ...result, staticVersions: project.staticVersions }
}
