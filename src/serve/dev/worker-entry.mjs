// Starts a dev server thread (workerData.module: './build-worker.ts' or './watch-worker.ts')
// through tsx, as bin/clinic-build.js starts the CLI: the thread runs the TypeScript sources directly.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'
import { workerData } from 'node:worker_threads'

register({ tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) })
await import(new URL(workerData.module, import.meta.url).href)
