/**
 * The dev server's builds run on this worker thread: the server keeps answering while a large
 * site builds, and a changed template is picked up by starting a fresh worker (a thread's
 * imported modules cannot be reloaded). Only a short report crosses back, not the site's files.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Diagnostic } from '../../types.ts'
import { DevOutput, type OutputUpdate } from './dev-output.ts'
import { buildPreview } from './run-build.ts'

export type BuildReport =
  | ({ ok: true; diagnostics: Diagnostic[]; ms: number } & OutputUpdate)
  | { ok: false; diagnostics: Diagnostic[]; ms: number }

const { root, outDir } = workerData as { root: string; outDir: string }
const output = new DevOutput(outDir, root)

parentPort!.on('message', async (changed: string[]) => {
  const started = performance.now()
  const ms = () => performance.now() - started
  let report: BuildReport
  try {
    const result = await buildPreview(root, changed)
    report = result.ok ? { ok: true, diagnostics: result.diagnostics, ...(await output.update(result)), ms: ms() } : { ok: false, diagnostics: result.diagnostics, ms: ms() }
  } catch (error) {
    report = { ok: false, diagnostics: [internalError(error)], ms: ms() }
  }
  parentPort!.postMessage(report)
})

/** A template or generator bug, shown like any other problem (the stack goes to the terminal). */
export function internalError(error: unknown): Diagnostic {
  const e = error as Error
  return { code: 'InternalError', severity: 'error', message: e.message ?? String(error), hint: e.stack?.split('\n').slice(1, 4).join('\n').trim(), file: 'clinic-build' }
}
parentPort!.postMessage('ready')
