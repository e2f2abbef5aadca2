/**
 * The server thread's own watch of the source folders: Node's fs.watch on each folder, which
 * reports a saved file about a millisecond after the save. chokidar, on its thread, reports the
 * same save 15–20 ms later at 4,000 articles, since after any change it reads the folder again
 * with a stat of every file. chokidar stays the watcher of record (src/serve/dev/watch.ts): it
 * names folders made later, which are then watched here too, and anything missed here.
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs'
import { join, sep } from 'node:path'

export interface QuickWatch {
  /** Watches a folder made since the start, and the folders in it; nothing when `path` is not a folder. */
  add: (path: string) => void
  /** Stops watching a folder that is gone, and the folders that were in it. */
  forget: (path: string) => void
  close: () => void
}

/** Watches `folders` and every folder in them; `report` gets the full path of each file saved, made, moved or removed. */
export function quickWatch(folders: string[], ignored: (name: string) => boolean, report: (path: string) => void): QuickWatch {
  /**
   * Each folder watched, and which folder it is: one removed and made again under the same name
   * needs a watch of its own (its inode number may be the old one's, its birth time is not).
   */
  const watchers = new Map<string, { watcher: FSWatcher; identity: string }>()

  const add = (dir: string): void => {
    const stats = statSync(dir, { throwIfNoEntry: false })
    const identity = `${stats?.ino} ${stats?.birthtimeMs}`
    if (!stats?.isDirectory() || watchers.get(dir)?.identity === identity) return
    forget(dir)
    let inside: string[]
    let watcher: FSWatcher
    try {
      watcher = watch(dir, (_, name) => { if (name && !ignored(name)) report(join(dir, name)) })
      inside = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !ignored(e.name)).map((e) => join(dir, e.name))
    } catch {
      return // gone meanwhile: chokidar reports it
    }
    watcher.on('error', () => forget(dir))
    watchers.set(dir, { watcher, identity })
    for (const folder of inside) add(folder)
  }

  const forget = (path: string): void => {
    for (const [dir, { watcher }] of watchers) {
      if (dir !== path && !dir.startsWith(path + sep)) continue
      watcher.close()
      watchers.delete(dir)
    }
  }

  for (const folder of folders) add(folder)
  return { add, forget, close: () => { for (const dir of [...watchers.keys()]) forget(dir) } }
}
