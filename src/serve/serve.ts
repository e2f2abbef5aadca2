/** `clinic-build serve`: the built folder served like the CDN will serve it, until Ctrl-C. */
import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { UsageError } from '../errors.ts'
import { hostDifferences } from './host-differences.ts'
import { localHandlers } from './local-handlers.ts'
import { loadHeaderRules } from './netlify-headers.ts'
import { startServer, type RunningServer } from './server.ts'
import { stopOnSignals } from './signals.ts'

export interface ServeOptions {
  out: string
  root: string
  port: number
  host: string
  /** Host names to answer besides IP addresses and localhost (`--allowed-host`). */
  allowedHosts?: string[]
}

export async function serve(options: ServeOptions, cwd = process.cwd()): Promise<RunningServer> {
  const dir = resolve(cwd, options.out)
  if (!existsSync(resolve(dir, 'index.html'))) {
    throw new UsageError(`${relative(cwd, dir) || '.'} holds no built site (no index.html). Run \`clinic-build --out ${options.out}\` first.`)
  }
  const running = await startServer({
    dir,
    port: options.port,
    host: options.host,
    allowedHosts: options.allowedHosts,
    handlers: localHandlers({ root: resolve(cwd, options.root) }),
    headerRules: await loadHeaderRules(dir, (message) => console.error(`warning: ${message}`)),
    compressAhead: true,
    onPortTaken: (taken, next) => console.error(`Port ${taken} is taken; trying ${next}.`),
    onError: (error) => console.error(`clinic-build: Internal error: ${(error as Error).stack ?? error}`),
  })
  console.log(`Serving ${options.out} at ${running.url}/  (Ctrl-C stops)`)
  const differences = hostDifferences(resolve(cwd, options.root))
  if (differences) console.log(`Where deploy.host answers otherwise: ${differences}`)
  stopOnSignals(async () => { await running.close(); console.log('Stopped.') })
  return running
}
