/** A render worker (src/render/shards.ts): answers its shard's calls with a renderer of its own. */
import { parentPort } from 'node:worker_threads'
import { createRenderer, type Renderer } from './renderer.ts'

const renderer = createRenderer()

parentPort!.on('message', async ({ id, method, args }: { id: number; method: keyof Renderer; args: unknown[] }) => {
  try {
    parentPort!.postMessage({ id, result: await (renderer[method] as (...a: unknown[]) => unknown)(...args) })
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  }
})
