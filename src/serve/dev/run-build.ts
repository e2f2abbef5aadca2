/** The one place the dev server calls the build: everything in memory, drafts and untranslated pages shown. */
import { build, type BuildResult } from '../../build/build.ts'
import { emptyCache, type BuildCache } from '../../build/cache.ts'
import { rehearse } from '../../build/body-edits.ts'
import { packageDir } from '../../util/package.ts'
import { readProject, rereadProject } from '../../content/read.ts'
import type { Project } from '../../types.ts'

/** Kept for the life of the build worker, so a save re-reads, re-parses and re-renders only what it changed. */
let cache = emptyCache()
let project: Project | undefined

/**
 * What a fresh build worker takes over from the one it replaces after a template's code changed:
 * the sources as read and what the builds derived from them. Cached pages stay valid for every
 * template but the edited ones, since a page's key carries its template's version.
 */
export interface PreviewState { project?: Project; cache: Pick<BuildCache, 'facts' | 'pages' | 'docs'> }

export const previewState = (): PreviewState => ({ project, cache: { facts: cache.facts, pages: cache.pages, docs: cache.docs } })

export function takeOverPreview(state: PreviewState): void {
  project = state.project
  cache = { ...emptyCache(), ...state.cache }
}

export type PreviewResult = BuildResult & Pick<Project, 'staticVersions'>

/** `changed`: the paths saved since the last build (relative to the site, or the package for templates/). */
export async function buildPreview(root: string, changed: string[]): Promise<PreviewResult> {
  project = project ? await rereadProject(project, changed, packageDir) : await readProject(root, packageDir)
  const result = await build({ root, project, write: false, drafts: true, translationFallback: true, cache })
  return { ...result, staticVersions: project.staticVersions }
}

/** Warms this thread's parser, React and minifier on a few pages of the last build (src/build/body-edits.ts). */
export const rehearsePreview = () => rehearse(cache)
