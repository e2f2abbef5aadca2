/**
 * `clinic-build dev` on a copy of the site, as a process of its own: started on a free port,
 * everything it prints kept, and a wait that fails with what it printed last.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { BIN } from './helpers.ts'
import { freePort } from './http.ts'

export interface DevProcess {
  /** Resolves with the server's address once it serves. */
  start: () => Promise<string>
  /** What it printed so far, stdout and stderr as they came. */
  output: () => string
  /** Null while it runs. */
  exitCode: () => number | null
  /** Waits until `check` holds; after `ms`, fails with what dev printed last. */
  until: (what: string, check: () => Promise<boolean>, ms?: number) => Promise<void>
  stop: () => Promise<void>
}

export function devProcess(site: string): DevProcess {
  let child: ChildProcess | undefined
  let output = ''
  return {
    async start() {
      const port = await freePort()
      const started = spawn(process.execPath, [BIN, 'dev', '--root', site, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
      child = started
      started.stderr!.on('data', (c) => { output += c })
      return new Promise((resolve, failed) => {
        started.stdout!.on('data', (c) => {
          output += c
          const address = /Dev server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1]
          if (address) resolve(address)
        })
        started.once('exit', (code) => failed(new Error(`dev exited ${code}:\n${output}`)))
      })
    },
    output: () => output,
    exitCode: () => child?.exitCode ?? null,
    async until(what, check, ms = 60_000) {
      const end = performance.now() + ms
      while (!(await check())) {
        if (performance.now() > end) throw new Error(`No ${what} within ${ms} ms. dev printed, last:\n${output.slice(-3000)}`)
        await new Promise((wait) => setTimeout(wait, 20))
      }
    },
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
    },
  }
}
