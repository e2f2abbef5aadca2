/** The main thread's side of the build worker: one build at a time, and a fresh worker on demand. */
import type { Worker } from 'node:worker_threads'
import { startWorker } from '../../util/workers.ts'
import type { BuildReport, WorkerState } from './build-worker.ts'

export class PreviewBuilder {
  private worker: Promise<Worker> | undefined
  private handover: WorkerState | undefined

  constructor(private readonly root: string, private readonly outDir: string) {}

  /**
   * Builds the site after `changed` files were saved; a worker that fails to start (a template
   * that does not compile) becomes a problem to show.
   */
  async build(changed: string[]): Promise<BuildReport> {
    const started = performance.now()
    try {
      return await ask<BuildReport>(await (this.worker ??= this.spawn()), changed)
    } catch (error) {
      this.worker = undefined
      const e = error as Error
      return { ok: false, ms: performance.now() - started, diagnostics: [{ code: 'InternalError', severity: 'error', file: 'clinic-build', message: e.message ?? String(error) }] }
    }
  }

  /**
   * Replaces the worker, so that changed template code is imported afresh. The new worker takes
   * over the old one's sources, cache and record of the output folder (kept here until a worker
   * starts with it), so it renders only the pages whose templates changed.
   */
  async restart(): Promise<void> {
    const worker = await this.worker?.catch(() => undefined)
    this.worker = undefined
    if (worker) this.handover = await ask<WorkerState>(worker, 'hand over').catch(() => this.handover)
    await worker?.terminate()
  }

  async close(): Promise<void> {
    const worker = await this.worker?.catch(() => undefined)
    this.worker = undefined
    await worker?.terminate()
  }

  private spawn(): Promise<Worker> {
    // The young generation render workers get (src/render/shards.ts): a rebuild makes many short-lived objects.
    const workerData = { root: this.root, outDir: this.outDir, state: this.handover }
    const worker = startWorker('serve/dev/build-worker', { fromSources: true, workerData, resourceLimits: { maxYoungGenerationSizeMb: 128 } })
    return new Promise((ready, fail) => {
      worker.once('message', () => { worker.off('error', fail); this.handover = undefined; ready(worker) })
      worker.once('error', fail)
    })
  }
}

/** The worker's answer to one message. */
function ask<T>(worker: Worker, message: unknown): Promise<T> {
  return new Promise((answered, fail) => {
    worker.once('error', fail)
    worker.once('message', (answer: T) => { worker.off('error', fail); answered(answer) })
    worker.postMessage(message)
  })
}
