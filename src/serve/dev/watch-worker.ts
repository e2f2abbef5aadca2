/**
 * The dev server's watcher thread. chokidar reads a folder again after any change in it, with a
 * stat of every file: at thousands of articles that is tens of milliseconds of work per save,
 * which on the server's thread would hold up the very requests for the rebuilt page. And on two
 * cores it would take time from the rebuild itself, so after reporting a change this thread
 * waits (at most a second) until the server says the rebuild is done; changes meanwhile wait in
 * the operating system's queue and are reported right after.
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { watchSources, type WatchedFolder } from './watch.ts'

const MAX_PAUSE_MS = 1000

// The re-reads are background work: where the system lets a thread have a priority of its own
// (Linux: /proc/thread-self names it), this one yields to the rebuild and the server.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10)
} catch {
  // elsewhere it keeps the process's priority
}

const { folders, rebuilding } = workerData as { folders: WatchedFolder[]; rebuilding: Int32Array }
const watcher = await watchSources(folders, (_, absolute) => {
  Atomics.store(rebuilding, 0, 1)
  parentPort!.postMessage({ absolute })
  Atomics.wait(rebuilding, 0, 1, MAX_PAUSE_MS)
})
parentPort!.on('message', async (message: string) => {
  if (message !== 'close') return
  await watcher.close()
  parentPort!.postMessage({ closed: true })
})
parentPort!.postMessage({ ready: true })
