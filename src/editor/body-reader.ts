/**
 * A worker of the preview (a module of its own in the editor's bundle): it reads the Markdown
 * bodies that the build would read under its time limit, off the editor's own thread, which
 * `preview-body.ts` can then end when a body runs over, as the build ends its thread
 * (src/render/shards.ts). The parser never yields, so ending the thread is the only way to stop it.
 */
import { parseBody } from '../markdown/body.ts'

/** What the worker is asked: one body. */
export interface BodyToRead { markdown: string; bodyLine: number }
/** What it answers: the syntax tree, or that the parser's recursion ran out of stack. */
export type BodyRead = { tree: ReturnType<typeof parseBody> } | { stackRanOut: true }

addEventListener('message', (event: MessageEvent<BodyToRead>) => {
  let answer: BodyRead
  try {
    answer = { tree: parseBody(event.data) }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    answer = { stackRanOut: true }
  }
  postMessage(answer)
})

// Loading the Markdown stack takes a moment: the time limit starts once this arrives.
postMessage('ready')
