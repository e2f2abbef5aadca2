/**
 * The dev server's watcher thread. chokidar reads a folder again after any change in it, with a
 * stat of every file: at thousands of articles that is tens of milliseconds of work per save,
 * which on the server's thread would hold up the very requests for the rebuilt page.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { watchSources, type WatchedFolder } from './watch.ts'

const { folders } = workerData as { folders: WatchedFolder[] }
const watcher = await watchSources(folders, (path) => parentPort!.postMessage({ path }))
parentPort!.on('message', async (message: string) => {
  if (message !== 'close') return
  await watcher.close()
  parentPort!.postMessage({ closed: true })
})
parentPort!.postMessage({ ready: true })
