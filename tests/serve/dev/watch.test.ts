/**
 * The dev server's watcher on a real folder: quick saves of one file must end in a report made
 * after the last of them, or the rebuild that follows reads a stale file.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { watchSources } from '../../../src/serve/dev/watch.ts'

test('three saves within 20 ms: the last one is reported, after it was made', async () => {
  const base = mkdtempSync(join(tmpdir(), 'clinic-watch-'))
  mkdirSync(join(base, 'content'))
  const file = join(base, 'content', 'page.md')
  writeFileSync(file, 'first')
  const reports: { path: string; at: number }[] = []
  const watcher = await watchSources([{ base, folder: 'content' }], (path) => reports.push({ path, at: performance.now() }))
  try {
    writeFileSync(file, 'second')
    await new Promise((r) => setTimeout(r, 10))
    writeFileSync(file, 'third, longer')
    await new Promise((r) => setTimeout(r, 10))
    writeFileSync(file, 'fourth, longer still')
    const lastSave = performance.now()
    await expect.poll(() => reports.filter((r) => r.at > lastSave).length, { timeout: 5000 }).toBeGreaterThan(0)
    expect(reports.every((r) => r.path === 'content/page.md')).toBe(true)
  } finally {
    await watcher.close()
  }
})
