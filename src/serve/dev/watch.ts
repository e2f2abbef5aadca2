/** Watches the site's sources and reports each changed path relative to its base: chokidar, and a quicker watch beside it. */
import { watch, type FSWatcher } from 'chokidar'
import { statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { startWorker } from '../../util/workers.ts'
import { quickWatch } from './quick-watch.ts'

/** Editors' swap and backup files, and dot files, are not sources. */
const IGNORED = (path: string) => /^\.|~$|\.(swp|swx|tmp)$/.test(basename(path))

/**
 * chokidar drops a file's change events for 50 ms after one it reports, with no event at the end,
 * so the last of several quick saves can go unreported. Each reported file is looked at again
 * after that window, and reported again if it changed meanwhile.
 */
const LOOK_AGAIN_MS = 80

export interface WatchedFolder { base: string; folder: string }

/** Where the watchers' reports go: the dev server's rebuild queue (src/serve/dev/queue.ts). */
export interface ChangeQueue { add: (path: string) => void; idle: () => Promise<void> }

/**
 * Runs watchSources() on a thread of its own (src/serve/dev/watch-worker.ts), and a quick watch
 * of the same folders on this one (src/serve/dev/quick-watch.ts), and puts each changed path in
 * `queue`. Each save reaches both: when the file is as it was at the first report, the second is
 * dropped, so that one save makes one rebuild and one line of the log. Resolves once chokidar's
 * initial scan is done.
 */
export async function watchInThread(folders: WatchedFolder[], queue: ChangeQueue): Promise<{ close: () => Promise<void> }> {
  const rebuilding = new Int32Array(new SharedArrayBuffer(4))
  const worker = startWorker('serve/dev/watch-worker', { fromSources: true, workerData: { folders, rebuilding } })
  const said = (what: 'ready' | 'closed') => new Promise<void>((done, fail) => {
    const listen = (message: { ready?: true; closed?: true }) => {
      if (message[what]) { worker.off('message', listen); worker.off('error', fail); done() }
    }
    worker.on('message', listen)
    worker.once('error', fail)
  })
  // chokidar's thread waits after each report until the rebuild is done, to leave it the cores.
  const rebuilt = () => { Atomics.store(rebuilding, 0, 0); Atomics.notify(rebuilding, 0) }
  /**
   * Each file reported, and its version then. Whichever watcher reports a save first, the other's
   * report of the same version is dropped: chokidar's usually comes second, but while this thread
   * is busy both wait in its event loop and either may be taken first.
   */
  const reported = new Map<string, string>()
  const report = (absolute: string, version: string) => {
    if (reported.get(absolute) === version) return
    reported.set(absolute, version)
    queue.add(sourcePath(folders, absolute))
  }
  const quick = quickWatch(folders.map((f) => join(f.base, f.folder)), IGNORED, (absolute) => {
    quick.add(absolute) // a folder made in a watched one
    report(absolute, versionOf(absolute))
  })
  worker.on('message', ({ absolute }: { absolute?: string }) => {
    if (absolute === undefined) return
    const version = versionOf(absolute)
    if (version === 'gone') quick.forget(absolute)
    else quick.add(absolute)
    report(absolute, version)
    void queue.idle().finally(rebuilt)
  })
  await said('ready')
  worker.on('error', (error) => console.error(`clinic-build: the file watcher stopped: ${error.message}; restart clinic-build dev.`))
  return {
    close: async () => {
      quick.close()
      rebuilt()
      const closed = said('closed')
      worker.postMessage('close')
      await closed.catch(() => {})
      await worker.terminate()
    },
  }
}

/** Resolves once the initial scan is done, so that every later change is reported. */
export async function watchSources(folders: WatchedFolder[], onChange: (path: string, absolute: string) => void): Promise<FSWatcher> {
  const watcher = watch(folders.map((f) => join(f.base, f.folder)), { ignoreInitial: true, ignored: IGNORED })
  const report = (path: string) => onChange(sourcePath(folders, path), path)
  const lookAgain = (path: string, seen: string) => {
    setTimeout(() => {
      const now = versionOf(path)
      if (watcher.closed || now === seen) return
      report(path)
      lookAgain(path, now)
    }, LOOK_AGAIN_MS).unref()
  }
  watcher.on('all', (event, path) => {
    report(path)
    if (event === 'add' || event === 'change') lookAgain(path, versionOf(path))
  })
  await new Promise<void>((ready) => watcher.once('ready', () => ready()))
  return watcher
}

/** A full path as the build names it: relative to the base of its folder, with forward slashes. */
function sourcePath(folders: WatchedFolder[], path: string): string {
  const owner = folders.find((f) => !relative(join(f.base, f.folder), path).startsWith('..'))
  return owner ? relative(owner.base, path).split('\\').join('/') : path
}

function versionOf(path: string): string {
  try {
    const stats = statSync(path)
    return `${stats.size}-${stats.mtimeMs}`
  } catch {
    return 'gone'
  }
}
