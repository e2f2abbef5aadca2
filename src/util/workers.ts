/**
 * Worker threads run the same code as the thread that starts them: the TypeScript sources through
 * tsx (src/util/worker-entry.mjs) when it runs from them, or the CLI's bundle when it runs from that;
 * the bundle holds the workers bin/bundle.js names as entry points (the render worker, check's served worker).
 * `fromSources` always takes the sources: dev's threads must import an edited template afresh.
 * `module` is a path under src/ without its extension. Example: 'serve/dev/build-worker'
 */
import { basename, join } from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { srcDir } from './package.ts'

const runningFromSources = import.meta.url.endsWith('.ts')

export function startWorker(module: string, { fromSources = runningFromSources, ...options }: WorkerOptions & { fromSources?: boolean } = {}): Worker {
  if (fromSources) return new Worker(join(srcDir, 'util', 'worker-entry.mjs'), { ...options, workerData: { ...options.workerData, module: `../${module}.ts` } })
  return new Worker(new URL(`./${basename(module)}.js`, import.meta.url), options)
}
