/**
 * The pre-scan of Markdown bodies (src/markdown/screen.ts) refuses no ordinary text: not the
 * shipped site's pages, not a synthetic corpus of 1,000 articles (../shared/bench/gen-corpus.mjs,
 * the benchmark's). And an end-to-end build with a refused page reports it with the other
 * pages' problems, exits 1, and leaves the last output as it was.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { screenBody } from '../../src/markdown/screen.ts'
import { BIN, copySite, digestOf, filesIn, projectRoot, runCli } from '../support/helpers.ts'

const markdownUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join(dir, f))
const refusals = (files: string[]) => files.flatMap((file) => {
  const found = screenBody(readFileSync(file, 'utf8')).refusal
  return found ? [{ file, ...found }] : []
})

test('no page of the shipped site is refused', () => {
  const files = markdownUnder(join(projectRoot, 'content'))
  expect(files.length).toBeGreaterThan(40)
  expect(refusals(files)).toEqual([])
})

test('escaped marks and brackets are text, not counted; the escaped backslash before a mark is', () => {
  expect(screenBody('\\* \\[ \\` '.repeat(3_000)).refusal).toBeUndefined()
  expect(screenBody('\\\\* '.repeat(3_000)).refusal).toMatchObject({ shape: 'marks' })
})

// Beside the project, as the benchmark finds it, or beside the folder of a worktree of it.
const corpusScript = [join(projectRoot, '../shared/bench/gen-corpus.mjs'), join(projectRoot, '../../shared/bench/gen-corpus.mjs')].find(existsSync) ?? ''
test.skipIf(!corpusScript)('no article of the 1,000-article synthetic corpus is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-'))
  execFileSync(process.execPath, [corpusScript, '1000', dir], { stdio: 'ignore' })
  const files = markdownUnder(dir)
  expect(files).toHaveLength(1000)
  expect(refusals(files)).toEqual([])
})

test('a pasted body is refused with its line, the other pages\' problems are reported, and the output is kept', async () => {
  const site = copySite()
  const out = join(site, 'dist')
  expect((await runCli(['--root', site, '--out', out])).status).toBe(0)
  const before = filesIn(out, digestOf)
  const head = '---\ntitle: Pasted\ndescription: A pasted article.\ndate: 2025-07-15\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [notes]\n---\n\nIntro.\n\n'
  writeFileSync(join(site, 'content/en/blog/pasted.md'), head + '*a **a '.repeat(4000) + 'b' + ' a** a*'.repeat(4000) + '\n')
  writeFileSync(join(site, 'content/en/blog/nested.md'), head + Array.from({ length: 80 }, (_, i) => `${'  '.repeat(i)}- item\n`).join(''))
  const privacy = join(site, 'content/en/privacy.md')
  writeFileSync(privacy, readFileSync(privacy, 'utf8') + '\n\nSee [nowhere](/no-such-page/).\n')
  const { status, stdout, stderr } = await runCli(['--root', site, '--out', out])
  const output = stdout + stderr
  expect(status).toBe(1)
  expect(output).toContain('content/en/blog/pasted.md:13  MarkdownTooComplex')
  // The 51st item, on the 63rd line: the nesting goes too deep there.
  expect(output).toContain('content/en/blog/nested.md:63  MarkdownTooDeep')
  expect(output).toMatch(/content\/en\/privacy\.md:\d+:\d+ {2}BrokenLink/)
  expect(output).not.toMatch(/internal error|RangeError|at .*\.ts:\d+/)
  expect(filesIn(out, digestOf)).toEqual(before)
})

test('bodies just under each limit build and render', async () => {
  const site = copySite()
  const head = '---\ntitle: Near\ndescription: A pasted article.\ndate: 2025-07-15\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [notes]\n---\n\n'
  const near: Record<string, string> = {
    marks: '*'.repeat(995) + 'a' + '*'.repeat(995),
    emphasis: '*a **a '.repeat(330) + 'b' + ' a** a*'.repeat(330),
    lists: Array.from({ length: 50 }, (_, i) => `${'  '.repeat(i)}- item\n`).join(''),
    quotes: '> '.repeat(50) + 'a',
    brackets: '['.repeat(1000) + 'a' + ']'.repeat(1000),
  }
  for (const [name, body] of Object.entries(near)) {
    expect(screenBody(body).refusal, name).toBeUndefined()
    writeFileSync(join(site, `content/en/blog/near-${name}.md`), head + body + '\n')
  }
  const { status, stdout, stderr } = await runCli(['--root', site, '--out', join(site, 'dist')])
  expect(status, stdout + stderr).toBe(0)
  expect(readFileSync(join(site, 'dist/blog/near-quotes/index.html'), 'utf8').split('<blockquote>')).toHaveLength(51)
})

test('a page whose rendering runs out of stack is refused with its file, not an internal error', async () => {
  // A stack of 150 KB, as a smaller machine's thread might have: the two bodies nested deepest overflow it.
  const site = copySite()
  const head = '---\ntitle: Near\ndescription: A pasted article.\ndate: 2025-07-15\nauthor: dr-evelyn-quah\nreviewedBy: dr-evelyn-quah\nreviewedOn: 2026-10-01\ntags: [notes]\n---\n\n'
  writeFileSync(join(site, 'content/en/blog/near-marks.md'), head + '*'.repeat(995) + 'a' + '*'.repeat(995) + '\n')
  const run = spawnSync(process.execPath, ['--stack-size=150', BIN, '--root', site, '--out', join(site, 'dist')], { encoding: 'utf8' })
  expect(run.status, run.stdout + run.stderr).toBe(1)
  expect(run.stdout + run.stderr).toContain('content/en/blog/near-marks.md  MarkdownTooComplex  The text is refused: it nests too deeply')
  expect(run.stdout + run.stderr).not.toMatch(/internal error/)
})
