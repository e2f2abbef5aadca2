/**
 * `clinic-build dev` given a save of a body the parser cannot read in reasonable time (the nested
 * emphasis of issue 54): the terminal and the overlay's event stream name the file, the line and
 * the refusal; that page stays as last built while another page's save is built and served; a
 * second page's mistake is held beside it; the next good save is built and served.
 */
import { request } from 'node:http'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { copySite } from '../../support/helpers.ts'
import { devProcess } from '../../support/dev-process.ts'
import { get } from '../../support/http.ts'

const PAGE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
const PAGE_URL = '/blog/how-to-prepare-for-a-rhinoplasty/'
const OTHER = 'content/en/privacy.md'
const OTHER_URL = '/privacy/'

const site = copySite()
const dev = devProcess(site)

afterAll(async () => {
  await dev.stop()
  rmSync(site, { recursive: true, force: true })
})

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
  const url = await dev.start()
  const status = async () => JSON.parse((await get(`${url}/__clinic/status`)).body.toString('utf8')) as { building: boolean; ok: boolean; builds: number; held: string[] }
  const saved = async (file: string, text: string) => {
    const before = (await status()).builds
    writeFileSync(join(site, file), text)
    await dev.until('a rebuild after the save', async () => { const s = await status(); return s.builds > before && !s.building })
  }
  await dev.until('the first build', async () => (await status()).builds > 0 && !(await status()).building)
  const original = readFileSync(join(site, PAGE), 'utf8')
  const served = (await get(`${url}${PAGE_URL}`)).body.toString('utf8')

  await saved(PAGE, `${original}\n${'*a **a '.repeat(4000)}b${' a** a*'.repeat(4000)}\n`)
  // The pasted paragraph starts on the line after the original text.
  const line = original.split('\n').length + 1
  expect((await status()).ok).toBe(false)
  expect(dev.output()).toContain(`${PAGE}:${line}  MarkdownTooComplex`)
  const { problems } = JSON.parse(await overlayProblems(url)) as { problems: { code: string; file: string; line: number; hint: string }[] }
  expect(problems).toContainEqual(expect.objectContaining({ code: 'MarkdownTooComplex', file: PAGE, line }))
  expect(problems.find((p) => p.code === 'MarkdownTooComplex')!.hint).toMatch(/backticks/)
  // The last good build is still served.
  expect((await get(`${url}${PAGE_URL}`)).body.toString('utf8')).toBe(served)

  // Only that page is held: another page's save meanwhile is built and served.
  expect(dev.output()).toContain(`${PAGE} is held back: ${PAGE_URL} shows its last good build`)
  expect((await status()).held).toEqual([PAGE])
  const other = readFileSync(join(site, OTHER), 'utf8')
  await saved(OTHER, `${other}\n\nA sentence saved while another page is held.\n`)
  expect((await get(`${url}${OTHER_URL}`)).body.toString('utf8')).toContain('A sentence saved while another page is held.')
  expect((await get(`${url}${PAGE_URL}`)).body.toString('utf8')).toBe(served)

  // Another page's mistake, saved meanwhile, is reported beside it, each on its own page.
  await saved(OTHER, `${other}\n\nSee [nowhere](/no-such-page/).\n`)
  const both = JSON.parse(await overlayProblems(url)) as { problems: { code: string }[]; pages: Record<string, { code: string; file: string }[]> }
  expect(both.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['MarkdownTooComplex', 'BrokenLink']))
  expect(both.pages[PAGE_URL]).toEqual([expect.objectContaining({ code: 'MarkdownTooComplex', file: PAGE })])
  expect(both.pages[OTHER_URL]).toEqual([expect.objectContaining({ code: 'BrokenLink', file: OTHER })])
  expect((await status()).held.sort()).toEqual([OTHER, PAGE].sort())
  expect((await get(`${url}${OTHER_URL}`)).body.toString('utf8')).toContain('A sentence saved while another page is held.')

  await saved(OTHER, other)
  await saved(PAGE, `${original}\nA good save.\n`)
  await dev.until('the good save served', async () => (await status()).ok && (await get(`${url}${PAGE_URL}`)).body.toString('utf8').includes('A good save.'))
  expect(dev.exitCode()).toBeNull()
  expect(dev.output()).not.toMatch(/internal ?error|RangeError|\n\s+at /i)
}, 300_000)
