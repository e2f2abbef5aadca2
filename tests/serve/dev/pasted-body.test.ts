/**
 * `clinic-build dev` given a save of a body the parser cannot read in reasonable time (the nested
 * emphasis of issue 54): the terminal and the overlay's event stream name the file, the line and
 * the refusal; the server keeps answering with the last good build; another page's save while it
 * stands is reported with it; the next good save is built and served.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { request } from 'node:http'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { BIN, copySite } from '../../support/helpers.ts'
import { freePort, get } from '../../support/http.ts'

const PAGE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
const PAGE_URL = '/blog/how-to-prepare-for-a-rhinoplasty/'
const OTHER = 'content/en/privacy.md'

const site = copySite()
let child: ChildProcess | undefined
let output = ''

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  rmSync(site, { recursive: true, force: true })
})

async function startDev(): Promise<string> {
  const port = await freePort()
  child = spawn(process.execPath, [BIN, 'dev', '--root', site, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stderr!.on('data', (c) => { output += c })
  return new Promise((started, failed) => {
    child!.stdout!.on('data', (c) => {
      output += c
      const address = /Dev server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1]
      if (address) started(address)
    })
    child!.once('exit', (code) => failed(new Error(`dev exited ${code}:\n${output}`)))
  })
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`No ${what} within ${ms} ms. dev printed, last:\n${output.slice(-3000)}`)
    await new Promise((wait) => setTimeout(wait, 50))
  }
}

/** The first `problems` event the overlay's stream sends a tab that connects now. */
function overlayProblems(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/__clinic/events`, (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
        const event = /event: problems\ndata: (.*)\n/.exec(text)
        if (event) { resolve(event[1]!); req.destroy() }
      })
    })
    req.on('error', reject)
    req.end()
  })
}

test('a pasted body is refused in the terminal and the overlay; dev keeps serving, and the next good save recovers', async () => {
  const url = await startDev()
  const status = async () => JSON.parse((await get(`${url}/__clinic/status`)).body.toString('utf8')) as { building: boolean; ok: boolean; builds: number }
  const saved = async (file: string, text: string) => {
    const before = (await status()).builds
    writeFileSync(join(site, file), text)
    await until('a rebuild after the save', async () => { const s = await status(); return s.builds > before && !s.building })
  }
  await until('the first build', async () => (await status()).builds > 0 && !(await status()).building)
  const original = readFileSync(join(site, PAGE), 'utf8')
  const served = (await get(`${url}${PAGE_URL}`)).body.toString('utf8')

  await saved(PAGE, `${original}\n${'*a **a '.repeat(4000)}b${' a** a*'.repeat(4000)}\n`)
  // The pasted paragraph starts on the line after the original text.
  const line = original.split('\n').length + 1
  expect((await status()).ok).toBe(false)
  expect(output).toContain(`${PAGE}:${line}  MarkdownTooComplex`)
  const problems = JSON.parse(await overlayProblems(url)) as { code: string; file: string; line: number; hint: string }[]
  expect(problems).toContainEqual(expect.objectContaining({ code: 'MarkdownTooComplex', file: PAGE, line }))
  expect(problems.find((p) => p.code === 'MarkdownTooComplex')!.hint).toMatch(/backticks/)
  // The last good build is still served.
  expect((await get(`${url}${PAGE_URL}`)).body.toString('utf8')).toBe(served)

  // Another page's mistake, saved meanwhile, is reported beside it.
  const other = readFileSync(join(site, OTHER), 'utf8')
  await saved(OTHER, `${other}\n\nSee [nowhere](/no-such-page/).\n`)
  const both = (JSON.parse(await overlayProblems(url)) as { code: string }[]).map((p) => p.code)
  expect(both).toEqual(expect.arrayContaining(['MarkdownTooComplex', 'BrokenLink']))

  await saved(OTHER, other)
  await saved(PAGE, `${original}\nA good save.\n`)
  await until('the good save served', async () => (await status()).ok && (await get(`${url}${PAGE_URL}`)).body.toString('utf8').includes('A good save.'))
  expect(child!.exitCode).toBeNull()
  expect(output).not.toMatch(/internal ?error|RangeError|\n\s+at /i)
}, 300_000)
