/**
 * The edited page's body as the preview reads it, the way the build does (src/render/shards.ts):
 * refused unread when the pre-scan refuses it (src/markdown/screen.ts), read at once when it is
 * ordinary, and, when the pre-scan marks it risky, read by a worker (body-reader.ts) under the
 * site's time limit and stopped past it. No text pasted into the editor can freeze its tab.
 */
import type { Root } from 'mdast'
import { useEffect, useMemo, useState } from 'react'
import { parseBody } from '../markdown/body.ts'
import { refusalOf, screenBody, stackRanOut, timeBudget, tooSlow } from '../markdown/screen.ts'
import type { Diagnostic, Doc } from '../types.ts'
import type { BodyRead, BodyToRead } from './body-reader.ts'

export interface PreviewBody {
  tree: Root
  /** Why the body was not read, in the build's words. */
  refusal?: Diagnostic
  /** A worker is reading the body, for at most `seconds`; `tree` is the last one read. */
  reading?: { seconds: number }
}

type Body = Pick<Doc, 'id' | 'markdown' | 'bodyLine'>

const EMPTY: Root = { type: 'root', children: [] }
/** Keystrokes closer together than this are one edit: the worker reads the text once they pause. */
const SETTLE_MS = 300

/** The body read here and now; undefined when it is risky and a worker can read it. */
export function readAtOnce(doc: Body, { worker }: { worker: boolean }): PreviewBody | undefined {
  const { refusal, risky } = screenBody(doc.markdown, doc.bodyLine)
  if (refusal) return { tree: EMPTY, refusal: refusalOf(refusal, doc.id) }
  return risky && worker ? undefined : readHere(doc)
}

function readHere(doc: Body): PreviewBody {
  try {
    return { tree: parseBody(doc) }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    return { tree: EMPTY, refusal: stackRanOut(doc.id, doc.bodyLine) }
  }
}

/**
 * The body of `doc` for the preview. `timeLimit`: site.yaml's bodyTimeLimit. `readerUrl`: the
 * worker's script; without it every body is read at once.
 */
export function usePreviewBody(doc: Body | undefined, timeLimit: number, readerUrl: string | undefined): PreviewBody | undefined {
  const { id = '', markdown, bodyLine = 1 } = doc ?? {}
  const atOnce = useMemo(() => (markdown === undefined ? undefined : readAtOnce({ id, markdown, bodyLine }, { worker: readerUrl !== undefined })), [id, markdown, bodyLine, readerUrl])
  const toWorker = markdown !== undefined && atOnce === undefined
  const [read, setRead] = useState<{ markdown: string; body: PreviewBody }>()

  useEffect(() => {
    if (!toWorker || markdown === undefined) return
    const body: Body = { id, markdown, bodyLine }
    const seconds = timeBudget(markdown, timeLimit)
    let worker: Worker | undefined
    let limit: ReturnType<typeof setTimeout> | undefined
    const done = (result: PreviewBody) => {
      clearTimeout(limit)
      worker?.terminate()
      setRead({ markdown, body: result })
    }
    const settle = setTimeout(() => {
      worker = new Worker(readerUrl!, { type: 'module' })
      worker.addEventListener('message', (event: MessageEvent<'ready' | BodyRead>) => {
        if (event.data !== 'ready') return done('tree' in event.data ? { tree: event.data.tree } : { tree: EMPTY, refusal: stackRanOut(id, bodyLine) })
        worker!.postMessage({ markdown, bodyLine } satisfies BodyToRead)
        limit = setTimeout(() => done({ tree: EMPTY, refusal: tooSlow(seconds, id, bodyLine) }), seconds * 1000)
      })
      // A browser that cannot start it (module workers came to Firefox in version 114): read here, as before.
      worker.addEventListener('error', (event) => {
        console.warn(`The preview's worker for long pages failed (${event.message || 'it did not start'}); the page is read on the editor's own thread.`)
        done(readHere(body))
      })
    }, SETTLE_MS)
    return () => {
      clearTimeout(settle)
      clearTimeout(limit)
      worker?.terminate()
    }
  }, [toWorker, id, markdown, bodyLine, timeLimit, readerUrl])

  if (!toWorker || markdown === undefined) return atOnce
  if (read?.markdown === markdown) return read.body
  return { tree: read?.body.tree ?? EMPTY, reading: { seconds: timeBudget(markdown, timeLimit) } }
}
