// A render worker (src/shards.ts). Plain JavaScript: worker threads do not inherit the TypeScript
// loader, so this registers it before loading the renderer.
import { parentPort } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) })
const { createRenderer } = await import('./renderer.ts')
const renderer = createRenderer()

parentPort.on('message', async ({ id, method, args }) => {
  try {
    parentPort.postMessage({ id, result: await renderer[method](...args) })
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  }
})
