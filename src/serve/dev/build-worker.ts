/**
 * The dev server's builds run on this worker thread: the server keeps answering while a large
 * site builds, and a changed template is picked up by starting a fresh worker (a thread's
 * imported modules cannot be reloaded), which takes over what this one knew. Only a short report
 * crosses back after a build, not the site's files.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { inlineScripts } from '../../assets/inline-scripts.ts'
import type { Diagnostic } from '../../types.ts'
import { DevOutput, type OutputState, type OutputUpdate } from './dev-output.ts'
import { Preview, type PreviewState } from './run-build.ts'
import type { HeldPage } from './held-pages.ts'

export type BuildReport =
  | ({ ok: true; diagnostics: Diagnostic[]; ms: number; rendered: number; held: HeldPage[] } & OutputUpdate)
  | { ok: false; diagnostics: Diagnostic[]; ms: number }

/** Asked for by the message 'hand over', given to the next worker as `workerData.state`. */
export interface WorkerState { preview: PreviewState; output: OutputState }

const { root, outDir, state } = workerData as { root: string; outDir: string; state?: WorkerState }
const preview = new Preview(root, state?.preview)
const output = new DevOutput(outDir, root)
if (state) output.takeOver(state.output)

parentPort!.on('message', async (message: string[] | 'hand over') => {
  if (message === 'hand over') {
    parentPort!.postMessage({ preview: preview.state(), output: output.state() } satisfies WorkerState)
    return
  }
  const started = performance.now()
  const ms = () => performance.now() - started
  let report: BuildReport
  try {
    const result = await preview.build(message)
    report = result.ok
      ? { ok: true, diagnostics: result.diagnostics, held: result.held, ...(await output.update(result)), rendered: result.pages?.rendered ?? 0, ms: ms() }
      : { ok: false, diagnostics: result.diagnostics, ms: ms() }
  } catch (error) {
    report = { ok: false, diagnostics: [internalError(error)], ms: ms() }
  }
  parentPort!.postMessage(report)
  // A template that fails to load fails the next build instead, with its message.
  warm ??= warmUp().catch(() => {})
})

let warm: Promise<void> | undefined

/**
 * Loads what a save's rebuild renders with once the first build is served, and runs it on a few
 * pages: a large site's first build renders on threads of its own, which left the parser, React,
 * the minifier, the templates and the inline scripts to load on the first save (0.64 s at 4,000
 * articles, 0.18 s with them loaded), and to run cold on the saves after it.
 */
async function warmUp(): Promise<void> {
  await import('../../render/renderer.ts')
  inlineScripts()
  await preview.rehearse()
}

/** A template or generator bug, shown like any other problem (the stack goes to the terminal). */
export function internalError(error: unknown): Diagnostic {
  const e = error as Error
  return { code: 'InternalError', severity: 'error', message: e.message ?? String(error), hint: e.stack?.split('\n').slice(1, 4).join('\n').trim(), file: 'clinic-build' }
}
parentPort!.postMessage('ready')
