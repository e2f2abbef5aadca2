/** Watches the site's sources with chokidar and reports each changed path relative to its base. */
import { watch, type FSWatcher } from 'chokidar'
import { statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { startWorker } from '../../util/workers.ts'

/** Editors' swap and backup files, and dot files, are not sources. */
const IGNORED = (path: string) => /^\.|~$|\.(swp|swx|tmp)$/.test(basename(path))

/**
 * chokidar drops a file's change events for 50 ms after one it reports, with no event at the end,
 * so the last of several quick saves can go unreported. Each reported file is looked at again
 * after that window, and reported again if it changed meanwhile.
 */
const LOOK_AGAIN_MS = 80

export interface WatchedFolder { base: string; folder: string }

/**
 * Runs watchSources() on a thread of its own (src/serve/dev/watch-worker.ts) and reports each
 * changed path on this one; `onChange` returns a promise of the rebuild the change started.
 * Resolves once the initial scan is done.
 */
export async function watchInThread(folders: WatchedFolder[], onChange: (path: string) => Promise<void>): Promise<{ close: () => Promise<void> }> {
  const rebuilding = new Int32Array(new SharedArrayBuffer(4))
  const worker = startWorker('serve/dev/watch-worker', { fromSources: true, workerData: { folders, rebuilding } })
  const said = (what: 'ready' | 'closed') => new Promise<void>((done, fail) => {
    const listen = (message: { path?: string; ready?: true; closed?: true }) => {
      if (message[what]) { worker.off('message', listen); worker.off('error', fail); done() }
    }
    worker.on('message', listen)
    worker.once('error', fail)
  })
  const rebuilt = () => { Atomics.store(rebuilding, 0, 0); Atomics.notify(rebuilding, 0) }
  worker.on('message', (message: { path?: string }) => { if (message.path !== undefined) void onChange(message.path).finally(rebuilt) })
  await said('ready')
  worker.on('error', (error) => console.error(`clinic-build: the file watcher stopped: ${error.message}; restart clinic-build dev.`))
  return {
    close: async () => {
      rebuilt()
      const closed = said('closed')
      worker.postMessage('close')
      await closed.catch(() => {})
      await worker.terminate()
    },
  }
}

/** Resolves once the initial scan is done, so that every later change is reported. */
export async function watchSources(folders: WatchedFolder[], onChange: (path: string) => void): Promise<FSWatcher> {
  const watcher = watch(folders.map((f) => join(f.base, f.folder)), { ignoreInitial: true, ignored: IGNORED })
  const report = (path: string) => {
    const owner = folders.find((f) => !relative(join(f.base, f.folder), path).startsWith('..'))
    onChange(owner ? relative(owner.base, path).split('\\').join('/') : path)
  }
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

function versionOf(path: string): string {
  try {
    const stats = statSync(path)
    return `${stats.size}-${stats.mtimeMs}`
  } catch {
    return 'gone'
  }
}
