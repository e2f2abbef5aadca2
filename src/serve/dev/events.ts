/**
 * Server-sent events to the open browser tabs: `reload`, `style` (new stylesheet URLs) and
 * `problems` (the errors to show in the overlay, on every page or on the pages of held files). A
 * tab that connects while errors stand is told at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Diagnostic } from '../../types.ts'

export const EVENTS_PATH = '/__clinic/events'

/**
 * What the overlay shows: every error on every page or, when `pages` is given, on each page named
 * there the errors that hold it. Example pages: { '/contact/': [{ code: 'InvalidYaml', … }] }
 */
export interface Standing { problems: Diagnostic[]; pages?: Record<string, Diagnostic[]> }

export class BrowserEvents {
  private tabs = new Set<ServerResponse>()
  private problems: Standing | undefined
  private heartbeat = setInterval(() => this.write(': still here\n\n'), 20_000).unref()

  /** The request handler of the event stream. */
  handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' || req.url !== EVENTS_PATH) return false
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' })
    res.write('retry: 500\n\n')
    if (this.problems) res.write(format('problems', this.problems))
    this.tabs.add(res)
    req.on('close', () => this.tabs.delete(res))
    return true
  }

  /** Each call names the errors that stand after it, if any: a tab that reloads is told them as it connects. */
  reload(standing?: Standing): void { this.problems = standing; this.write(format('reload', {})) }
  style(stylesheets: string[], standing?: Standing): void {
    this.problems = standing
    this.write(format('style', { stylesheets }))
    if (standing) this.write(format('problems', standing))
  }
  showProblems(standing: Standing): void { this.problems = standing; this.write(format('problems', standing)) }

  close(): void {
    clearInterval(this.heartbeat)
    for (const tab of this.tabs) tab.end()
    this.tabs.clear()
  }

  private write(chunk: string): void { for (const tab of this.tabs) tab.write(chunk) }
}

const format = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
