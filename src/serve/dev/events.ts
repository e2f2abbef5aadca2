/**
 * Server-sent events to the open browser tabs: `reload`, `style` (new stylesheet URLs) and
 * `problems` (the errors to show in the overlay). A tab that connects while the site has errors is
 * told at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

export const EVENTS_PATH = '/__clinic/events'

export class BrowserEvents {
  private tabs = new Set<ServerResponse>()
  private problems: unknown[] | undefined
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

  reload(): void { this.problems = undefined; this.write(format('reload', {})) }
  style(stylesheets: string[]): void { this.problems = undefined; this.write(format('style', { stylesheets })) }
  showProblems(problems: unknown[]): void { this.problems = problems; this.write(format('problems', problems)) }

  close(): void {
    clearInterval(this.heartbeat)
    for (const tab of this.tabs) tab.end()
    this.tabs.clear()
  }

  private write(chunk: string): void { for (const tab of this.tabs) tab.write(chunk) }
}

const format = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
