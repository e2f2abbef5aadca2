/**
 * The dev server's folder (.clinic/dev): each build's files, with the dev additions, written only
 * where they changed, plus the static/ files that changed. Files of pages that no longer exist
 * stay on disk but are left out of `published`, so the server answers 404 for them without racing
 * a delete against a read.
 */
import { createHash } from 'node:crypto'
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { injectDev } from './inject.ts'
import { ADMIN_DIR } from '../../admin/config.ts'
import { previewNotices } from './notices.ts'
import type { PreviewResult } from './run-build.ts'

export interface OutputUpdate {
  /** Paths written by this update, relative to the folder. */
  changed: string[]
  /** Paths of the last update that this one no longer publishes. */
  removed: string[]
  /** Every path of the current site, when it differs from the last update's (a save mostly adds and removes nothing). */
  published?: string[]
  /** Stylesheet URLs of the current build. Example: ['/assets/site.5TKQ2ZLM.css'] */
  stylesheets: string[]
}

export class DevOutput {
  /**
   * What each path was built from (the build's file) and what was written for it; after a
   * take-over from another worker, only a digest of what was written.
   */
  private previous = new Map<string, { built?: string | Uint8Array; version?: string; notices: string; written?: string | Uint8Array; digest?: string }>()
  private staticVersions = new Map<string, string>()
  private writes = 0

  constructor(private readonly dir: string, private readonly root: string) {}

  async update(result: PreviewResult): Promise<OutputUpdate> {
    const noticesOf = await previewNotices(this.root, result.table?.routes ?? [])
    const changed: string[] = []
    let added = false
    const current: typeof this.previous = new Map()
    for (const file of result.files) {
      const notices = noticesOf.get(file.path) ?? []
      const noticeText = notices.join('\n')
      const before = this.previous.get(file.path)
      // An unchanged page has the version it had (its contents are then not even made), or is
      // the very same string as last time: no need to inject or compare it again.
      if (before && before.notices === noticeText && (file.version === undefined ? before.built === file.contents : before.version === file.version)) {
        current.set(file.path, before)
        continue
      }
      const built = file.contents
      // The content editor is left without the reload script: a save made in it must not reload it.
      const written = file.path.endsWith('.html') && !file.path.startsWith(`${ADMIN_DIR}/`) && typeof built === 'string' ? injectDev(built, notices) : built
      current.set(file.path, { built, version: file.version, notices: noticeText, written })
      added ||= !before
      if (!before || !(before.written === undefined ? before.digest === digest(written) : same(before.written, written))) {
        await this.write(file.path, (temp) => writeFile(temp, written))
        changed.push(file.path)
      }
    }
    const removed = [...this.previous.keys()].filter((path) => !current.has(path))
    this.previous = current

    // The build's own record of static/ (src/content/read.ts), so a save does not list and stat the folder.
    const staticDir = join(this.root, 'static')
    const versions = new Map(Object.entries(result.staticVersions).filter(([file]) => !current.has(file)))
    for (const [file, version] of versions) {
      if (this.staticVersions.get(file) === version) continue
      added ||= !this.staticVersions.has(file)
      const copied = await this.write(file, (temp) => copyFile(join(staticDir, file), temp)).then(() => true, () => false)
      if (copied) changed.push(file)
      else versions.delete(file) // removed since the build read it: the next save's build drops it
    }
    removed.push(...[...this.staticVersions.keys()].filter((file) => !versions.has(file)))
    this.staticVersions = versions

    const stylesheets = [...current.keys()].filter((p) => /^assets\/[^/]+\.css$/.test(p)).map((p) => `/${p}`)
    const published = added || removed.length > 0 ? [...current.keys(), ...versions.keys()] : undefined
    return { changed, removed, published, stylesheets }
  }

  /** What a build worker replacing this one needs to know of the folder (see run-build.ts). */
  state(): OutputState {
    return {
      files: [...this.previous].map(([path, entry]) => [path, { notices: entry.notices, digest: entry.digest ?? digest(entry.written!) }]),
      statics: [...this.staticVersions],
    }
  }

  takeOver(state: OutputState): void {
    this.previous = new Map(state.files)
    this.staticVersions = new Map(state.statics)
  }

  /** Writes beside the target and renames over it, so a request never reads half a file. */
  private async write(path: string, put: (temp: string) => Promise<void>): Promise<void> {
    const target = join(this.dir, path)
    const temp = join(this.dir, `.writing-${this.writes++}`)
    await mkdir(dirname(target), { recursive: true })
    await put(temp)
    await rename(temp, target)
  }
}

export interface OutputState { files: [string, { notices: string; digest: string }][]; statics: [string, string][] }

const digest = (contents: string | Uint8Array) => createHash('sha1').update(contents).digest('base64')

function same(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)
}
