/**
 * The one place the dev server calls the build: everything in memory, drafts and untranslated
 * pages shown, and a page whose own file has a mistake held back (held-pages.ts) while the others
 * are built.
 */
import { build, type BuildResult } from '../../build/build.ts'
import { emptyCache, type BuildCache } from '../../build/cache.ts'
import { rehearse } from '../../build/body-edits.ts'
import { packageDir } from '../../util/package.ts'
import { readProject, rereadProject } from '../../content/read.ts'
import type { Project, SourceFile } from '../../types.ts'
import { errorsByPage, Holds, urlsByFile, type HeldPage } from './held-pages.ts'

/**
 * What a fresh build worker takes over from the one it replaces after a template's code changed:
 * the sources as read and what the builds derived from them. Cached pages stay valid for every
 * template but the edited ones, since a page's key carries its template's version.
 */
export interface PreviewState {
  project?: Project
  cache: Pick<BuildCache, 'facts' | 'pages' | 'docs'>
  good: SourceFile[]
}

export type PreviewResult = BuildResult & Pick<Project, 'staticVersions'> & { held: HeldPage[] }

/** A site's previews for the life of one build worker: a save re-reads, re-parses and re-renders only what it changed. */
export class Preview {
  private project: Project | undefined
  private cache: BuildCache = emptyCache()
  /** Each content file's text when it last built with no error of its own (the project's own list while none is held). */
  private good: SourceFile[] = []

  constructor(private readonly root: string, state?: PreviewState) {
    if (!state) return
    this.project = state.project
    this.cache = { ...emptyCache(), ...state.cache }
    this.good = state.good
  }

  /** `changed`: the paths saved since the last build (relative to the site, or the package for templates/). */
  async build(changed: string[]): Promise<PreviewResult> {
    const project = this.project = this.project ? await rereadProject(this.project, changed, packageDir) : await readProject(this.root, packageDir)
    const holds = new Holds(project, this.good)
    for (;;) {
      const result = await build({ root: this.root, project: holds.apply(), write: false, drafts: true, translationFallback: true, cache: this.cache })
      const mistakes = result.ok ? undefined : errorsByPage(result.diagnostics)
      if (!mistakes || !holds.add(mistakes)) {
        if (result.ok) this.good = holds.goodFiles()
        return { ...result, staticVersions: project.staticVersions, held: result.ok && holds.size > 0 ? holds.pages(urlsByFile(result.table?.routes ?? [])) : [] }
      }
    }
  }

  state(): PreviewState {
    return { project: this.project, cache: { facts: this.cache.facts, pages: this.cache.pages, docs: this.cache.docs }, good: this.good }
  }

  /** Warms this thread's parser, React and minifier on a few pages of the last build (src/build/body-edits.ts). */
  rehearse = () => rehearse(this.cache)
}
