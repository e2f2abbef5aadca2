/**
 * The dev server's watchers on a real folder: quick saves of one file must end in a report made
 * after the last of them, or the rebuild that follows reads a stale file; and a save reported by
 * both watchers must make one rebuild, not two.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { quickWatch } from '../../../src/serve/dev/quick-watch.ts'
import { watchInThread, watchSources } from '../../../src/serve/dev/watch.ts'

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

describe('the dev server\'s watchers, chokidar and the quick watch beside it', () => {
  let base: string
  let reports: string[]
  let watching: { close: () => Promise<void> }
  beforeEach(async () => {
    base = mkdtempSync(join(tmpdir(), 'clinic-watch-'))
    mkdirSync(join(base, 'content', 'blog'), { recursive: true })
    writeFileSync(join(base, 'content', 'blog', 'post.md'), 'first')
    reports = []
    watching = await watchInThread([{ base, folder: 'content' }], { add: (path) => reports.push(path), idle: async () => {} })
  })
  afterEach(async () => {
    await watching.close()
    rmSync(base, { recursive: true, force: true })
  })

  /** What was reported, once chokidar, which reports after the quick watch, has surely reported too. */
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 1500))
    return reports.splice(0)
  }
  /** A save as many editors make it: the new text written beside the folder, then renamed over the file (one event). */
  const saveByRename = (path: string, text: string) => {
    writeFileSync(join(base, 'saving'), text)
    renameSync(join(base, 'saving'), join(base, path))
  }

  test('a save is reported once: chokidar\'s later report of it is dropped', async () => {
    saveByRename('content/blog/post.md', 'second')
    expect(await settled()).toEqual(['content/blog/post.md'])
    saveByRename('content/blog/post.md', 'third')
    expect(await settled()).toEqual(['content/blog/post.md'])
  })

  test('a save made while the server thread is busy is reported once, whichever watcher is heard first', async () => {
    for (const text of ['second', 'third', 'fourth']) {
      saveByRename('content/blog/post.md', text)
      const until = performance.now() + 200
      while (performance.now() < until); // a render on this thread: both watchers' reports wait for it
      expect(await settled(), text).toEqual(['content/blog/post.md'])
    }
  })

  test('a file made, saved in place and removed is reported each time; swap files are not', async () => {
    const count = () => reports.filter((p) => p === 'content/blog/new.md').length
    writeFileSync(join(base, 'content/blog/new.md'), 'new')
    await expect.poll(count).toBeGreaterThan(0)
    let before = count()
    writeFileSync(join(base, 'content/blog/new.md'), 'new, saved')
    await expect.poll(count).toBeGreaterThan(before)
    before = count()
    rmSync(join(base, 'content/blog/new.md'))
    await expect.poll(count).toBeGreaterThan(before)
    writeFileSync(join(base, 'content/blog/.post.md.swp'), 'swap')
    writeFileSync(join(base, 'content/blog/post.md~'), 'backup')
    expect((await settled()).filter((p) => !p.endsWith('new.md'))).toEqual([])
  })

  test('in a folder made, or removed and made again, a save is reported once', async () => {
    for (const folder of ['content/guides', 'content/blog']) {
      rmSync(join(base, folder), { recursive: true, force: true })
      mkdirSync(join(base, folder))
      writeFileSync(join(base, folder, 'page.md'), 'made')
      await settled()
      saveByRename(`${folder}/page.md`, 'saved')
      expect(await settled(), folder).toEqual([`${folder}/page.md`])
    }
  })
})

describe('the quick watch', () => {
  test('reports saves in every folder, folders added later and folders made again, until forgotten', async () => {
    const base = mkdtempSync(join(tmpdir(), 'clinic-quick-watch-'))
    mkdirSync(join(base, 'a', 'b'), { recursive: true })
    const reported: string[] = []
    const quick = quickWatch([base], (name) => name.startsWith('.'), (path) => reported.push(relative(base, path)))
    const saved = async (path: string) => {
      writeFileSync(join(base, path), String(Math.random()))
      await expect.poll(() => reported).toContain(path)
    }
    try {
      await saved('a/b/page.md')
      mkdirSync(join(base, 'c'))
      quick.add(join(base, 'c'))
      await saved('c/page.md')
      rmSync(join(base, 'a'), { recursive: true })
      mkdirSync(join(base, 'a'))
      quick.add(join(base, 'a')) // the same name, another folder
      await saved('a/page.md')
      quick.forget(join(base, 'c'))
      reported.length = 0
      writeFileSync(join(base, 'c', 'page.md'), 'unseen')
      writeFileSync(join(base, '.hidden'), 'unseen')
      await saved('page.md')
      expect(reported.filter((p) => p !== 'page.md')).toEqual([])
    } finally {
      quick.close()
      rmSync(base, { recursive: true, force: true })
    }
  })
})
