/**
 * A thread for a check that reads the built site over HTTP (served.ts): it serves the folder on a
 * port of its own and runs the job, linkinator's runs or Chromium's visits, so that the checks
 * judging pages from their files go on at the same time on the main thread, which would
 * otherwise keep the server and the browser's driver waiting.
 */
import { once } from 'node:events'
import { parentPort, workerData } from 'node:worker_threads'
import { UsageError } from '../errors.ts'
import { loadHeaderRules, startServer } from '../serve/index.ts'
import type { LinkRun } from './linkinator.ts'
import type { ServedJob } from './served.ts'

async function run({ dir, job }: { dir: string; job: ServedJob }): Promise<unknown> {
  const server = await startServer({
    dir, port: 0, unchanging: true, headerRules: await loadHeaderRules(dir, () => {}),
    compress: false, // every page is read once: compressing each would cost more than sending it
  })
  try {
    // Both start before their pages are known: the main thread is still reading them.
    if (job === 'links') {
      const { runLinkinator } = await import('./linkinator.ts')
      const [run] = await once(parentPort!, 'message') as [LinkRun]
      return run.starts.length === 0 ? [] : await runLinkinator(server.url, run)
    }
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
