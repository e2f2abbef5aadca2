/**
 * The editor's preview (src/editor/preview-body.ts, render-page.ts) of a page whose body the
 * build would refuse: the refusal comes back, in the build's words, in place of the page's text,
 * at once, where reading the body would have frozen the editor's tab for minutes; a body the build
 * reads under its time limit is left to the preview's worker.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { judge } from '../../src/editor/findings.ts'
import { readAtOnce } from '../../src/editor/preview-body.ts'
import { renderPreview } from '../../src/editor/render-page.ts'
import type { RenderInput } from '../../src/render/renderer.ts'
import { copySite, runCli } from '../support/helpers.ts'
import { article } from '../support/pathological.ts'

let input: RenderInput
beforeAll(async () => {
  const site = copySite()
  expect((await runCli(['--root', site, '--out', join(site, 'dist')])).status).toBe(0)
  input = JSON.parse(readFileSync(join(site, 'dist/admin/preview.json'), 'utf8')) as RenderInput
})

const PATH = 'content/en/blog/pasted.md'
const page = (body: string) => `---\ntitle: Pasted\ndescription: A pasted article.\ndate: 2025-07-15\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [notes]\n---\n\n${body}\n`

test('a pasted body of nested emphasis is refused with the build\'s message, its text left out', () => {
  const { doc } = judge(PATH, page('Intro.\n\n' + '*a **a '.repeat(4000) + 'b' + ' a** a*'.repeat(4000)), input.site)
  const body = readAtOnce(doc!, { worker: true })!
  expect(body.refusal).toMatchObject({ code: 'MarkdownTooComplex', file: PATH, line: 13 })
  expect(body.refusal!.hint).toContain('backticks')
  expect(renderPreview(doc!, input, body.tree)!.body).not.toMatch(/<em>|Intro\./)
})

test('an ordinary body is shown, with no refusal', () => {
  const { doc } = judge(PATH, page('Intro with **strong** words.'), input.site)
  const body = readAtOnce(doc!, { worker: true })!
  expect(body.refusal).toBeUndefined()
  expect(renderPreview(doc!, input, body.tree)!.body).toContain('<strong>strong</strong>')
})

test('a body the build reads under its time limit goes to the worker; with no worker it is read at once', () => {
  const { doc } = judge(PATH, page(article(100_000)), input.site)
  expect(readAtOnce(doc!, { worker: true })).toBeUndefined()
  const body = readAtOnce(doc!, { worker: false })!
  expect(body.refusal).toBeUndefined()
  expect(renderPreview(doc!, input, body.tree)!.body).toContain('<strong>strong</strong>')
})
