/** Watches the site's sources with chokidar and reports each changed path relative to its base. */
import { watch, type FSWatcher } from 'chokidar'
import { basename, join, relative } from 'node:path'

/** Editors' swap and backup files, and dot files, are not sources. */
const IGNORED = (path: string) => /^\.|~$|\.(swp|swx|tmp)$/.test(basename(path))

export interface WatchedFolder { base: string; folder: string }

/** Resolves once the initial scan is done, so that every later change is reported. */
export async function watchSources(folders: WatchedFolder[], onChange: (path: string) => void): Promise<FSWatcher> {
  const watcher = watch(folders.map((f) => join(f.base, f.folder)), { ignoreInitial: true, ignored: IGNORED })
  watcher.on('all', (_event, path) => {
    const owner = folders.find((f) => !relative(join(f.base, f.folder), path).startsWith('..'))
    onChange(owner ? relative(owner.base, path).split('\\').join('/') : path)
  })
  await new Promise<void>((ready) => watcher.once('ready', () => ready()))
  return watcher
}
