/**
 * The checks that read the built site as a client does, each on a thread of its own
 * (served-worker.ts): linkinator's runs, and Chromium's visits.
 */
import { UsageError } from '../errors.ts'
import type { Worker } from 'node:worker_threads'
import { startWorker } from '../util/workers.ts'
import type { PageVisit } from './browser.ts'
import type { FoundLink, LinkRun } from './linkinator.ts'

/** Each thread starts before its pages are known, and is given them by a message. */
export type ServedJob = 'links' | 'visits'

interface Reply { result?: unknown; done?: number; error?: { message: string; stack?: string; usage: boolean } }

export interface LinksRunning {
  /** Gives linkinator its pages: the first call counts, and a run with no pages ends the thread. */
  start: (run: LinkRun) => void
  /** What linkinator found; until this is asked for, the check may end without waiting for it. */
  result: () => Promise<FoundLink[]>
}

/** linkinator, made ready at once (the thread and the module) for runs whose pages are named later. */
export function linksServed(dir: string): LinksRunning {
  const { worker, result } = served<FoundLink[]>(dir, 'links')
  worker.unref()
  result.catch(() => {}) // reported to whoever asks
  let started = false
  return {
    start: (run) => {
      if (!started) { started = true; worker.postMessage(run) }
    },
    result: () => { worker.ref(); return result },
  }
}

export interface BrowserVisits {
  /** The pages to open; called once. An empty list closes Chromium. */
  visit: (paths: string[], onVisit?: (done: number) => void) => Promise<PageVisit[]>
  /** Lets Chromium open a second tab: the link check, which shares the cores until then, is done. */
  widen: () => void
}

/** Chromium, started at once, for visits whose pages are named later (browser.ts openBrowser). */
export function browserServed(dir: string): BrowserVisits {
  let onProgress: ((done: number) => void) | undefined
  const { worker, result } = served<PageVisit[]>(dir, 'visits', (done) => onProgress?.(done))
  worker.unref() // until it is given its pages: a check that stops on an error before then must not wait for it
  result.catch(() => {}) // a failure to start is reported by visit()
  let asked = false
  return {
    visit: (paths, onVisit) => {
      if (!asked) { asked = true; onProgress = onVisit; worker.ref(); worker.postMessage(paths) }
      return result
    },
    widen: () => {
      if (asked) worker.postMessage('widen') // before its pages, it would be read as them; the thread heeds the first
    },
  }
}

function served<T>(dir: string, job: ServedJob, onProgress?: (done: number) => void): { worker: Worker; result: Promise<T> } {
  // A larger young generation: parsing every page makes many short-lived objects.
  const worker = startWorker('check/served-worker', { workerData: { dir, job }, resourceLimits: { maxYoungGenerationSizeMb: 64 } })
  const result = new Promise<T>((resolve, reject) => {
    worker.on('message', ({ result, done, error }: Reply) => {
      if (done !== undefined) return onProgress?.(done)
      if (error) reject(error.usage ? new UsageError(error.message) : Object.assign(new Error(error.message), { stack: error.stack }))
      else resolve(result as T)
      void worker.terminate() // done: whatever the thread still holds (the browser thread's HTTP connections) must not keep it alive
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the ${job} check's thread stopped (exit code ${code})`)))
  })
  return { worker, result }
}
