/** A render worker (src/render/shards.ts): answers its shard's calls with a renderer of its own. */
import { parentPort, workerData } from 'node:worker_threads'
import { InternalError } from '../errors.ts'
import { createRenderer, type Renderer } from './renderer.ts'

const renderer = createRenderer((workerData as { scratch?: number } | null)?.scratch)

parentPort!.on('message', async ({ id, method, args }: { id: number; method: keyof Renderer; args: unknown[] }) => {
  try {
    parentPort!.postMessage({ id, result: await (renderer[method] as (...a: unknown[]) => unknown)(...args) })
  } catch (error) {
    // Errors cross threads as plain data: the file a bug met is sent beside its message and stack.
    const { message, stack } = error instanceof Error ? error : { message: String(error), stack: undefined }
    parentPort!.postMessage({ id, error: { message, stack, file: error instanceof InternalError ? error.file : undefined } })
  }
})
