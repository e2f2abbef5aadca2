/**
 * A thread for a check that reads the built site as a visitor's client does (served.ts):
 * linkinator's runs, answered from the folder inside the thread as `serve` answers (folder-fetch.ts),
 * or Chromium's visits, over HTTP from a server on a port of its own. The checks judging pages
 * from their files go on at the same time on the main thread, which would otherwise keep
 * linkinator and the browser's driver waiting.
 */
import { once } from 'node:events'
import { parentPort, workerData } from 'node:worker_threads'
import { UsageError } from '../errors.ts'
import { loadHeaderRules, startServer } from '../serve/index.ts'
import { folderFetch } from './folder-fetch.ts'
import type { LinkRun } from './linkinator.ts'
import type { ServedJob } from './served.ts'

/** Where linkinator reads the site: a name no network answers (RFC 2606), since in this thread fetch answers it from the folder. */
const SITE = 'http://site.invalid'

async function run({ dir, job }: { dir: string; job: ServedJob }): Promise<unknown> {
  // Both start before their pages are known: the main thread is still reading them.
  if (job === 'links') {
    // linkinator asks through the global fetch, and this thread runs nothing else.
    globalThis.fetch = folderFetch(dir, SITE)
    const { runLinkinator } = await import('./linkinator.ts')
    const [run] = await once(parentPort!, 'message') as [LinkRun]
    return run.starts.length === 0 ? [] : await runLinkinator(SITE, run)
  }
  const server = await startServer({
    dir, port: 0, unchanging: true, headerRules: await loadHeaderRules(dir, () => {}),
    compress: false, // every page is read once: compressing each would cost more than sending it
  })
  try {
    const opening = import('./browser.ts').then(({ openBrowser }) => openBrowser(server.url))
    opening.catch(() => {}) // awaited below
    const [paths] = await once(parentPort!, 'message') as [string[]]
    const widen = once(parentPort!, 'message').then(() => {})
    const browser = await opening
    try {
      return await browser.visit(paths, (done) => parentPort!.postMessage({ done }), widen)
    } finally {
      await browser.close()
    }
  } finally {
    await server.close()
  }
}

run(workerData).then(
  (result) => parentPort!.postMessage({ result }),
  (error: unknown) => {
    const { message, stack } = error instanceof Error ? error : { message: String(error), stack: undefined }
    parentPort!.postMessage({ error: { message, stack, usage: error instanceof UsageError } })
  },
)
