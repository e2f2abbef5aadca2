// Starts a worker thread on the TypeScript sources through tsx (workerData.module: a path
// relative to this folder, such as '../render/shard-worker.ts'). Worker threads do not inherit a loader.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'
import { workerData } from 'node:worker_threads'

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) })
await import(new URL(workerData.module, import.meta.url).href)
