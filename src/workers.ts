/**
 * Worker threads run the same code as the thread that starts them: the TypeScript sources through
 * tsx (src/worker-entry.mjs) when it runs from them, or the CLI's bundle (bin/bundle.js) when it
 * runs from that. `module` is a path under src/ without its extension. Example: 'serve/dev/build-worker'
 */
import { basename, join } from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { srcDir } from './config.ts'

const fromSources = import.meta.url.endsWith('.ts')

export function startWorker(module: string, options: WorkerOptions & { fromSources?: boolean } = {}): Worker {
  const { fromSources: sources = fromSources, ...rest } = options
  if (sources) return new Worker(join(srcDir, 'worker-entry.mjs'), { ...rest, workerData: { ...rest.workerData, module: `./${module}.ts` } })
  return new Worker(new URL(`./${basename(module)}.js`, import.meta.url), rest)
}
