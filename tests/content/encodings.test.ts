// The site as a Windows checkout has it (Git for Windows turns every LF into CRLF), or as other
// editors save it (a UTF-8 byte-order mark, CR alone, UTF-16), builds byte for byte as the original.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { copySite, filesIn, runCli } from '../support/helpers.ts'

/** Every file under `dir`, by its path relative to it. */
const tree = (dir: string) => filesIn(dir, (path) => readFileSync(path))

/** Rewrites every Markdown and YAML file of a site copy with `save`, which gets each file's text. */
function resave(site: string, save: (text: string, file: string) => Buffer): number {
  let count = 0
  for (const folder of ['content', 'locales']) {
    for (const entry of readdirSync(join(site, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(md|ya?ml)$/.test(entry.name)) continue
      const file = join(entry.parentPath, entry.name)
      writeFileSync(file, save(readFileSync(file, 'utf8'), relative(site, file)))
      count++
    }
  }
  return count
}

/**
 * The files of the output folder `dir` that are not byte for byte the original build's: changed,
 * added or missing. Compared with Buffer.equals: a deep equality of the 7 MB editor bundle byte by
 * byte took a minute.
 */
function differences(dir: string): string[] {
  const built = tree(dir)
  const same = (path: string) => {
    const [now, then] = [built.get(path), original.get(path)]
    return now !== undefined && then !== undefined && now.equals(then)
  }
  return [...new Set([...built.keys(), ...original.keys()])].filter((path) => !same(path)).sort()
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf])

let original: Map<string, Buffer>
beforeAll(async () => {
  const site = copySite()
  const { status, stderr } = await runCli(['--root', site, '--out', join(site, 'dist')])
  expect(status, stderr).toBe(0)
  original = tree(join(site, 'dist'))
})

describe('line endings and encodings', () => {
  test('the whole site saved with CRLF line endings builds byte for byte as with LF', async () => {
    const site = copySite()
    expect(resave(site, (text) => Buffer.from(text.replace(/\n/g, '\r\n')))).toBeGreaterThan(50)
    const { status, stderr } = await runCli(['--root', site, '--out', join(site, 'dist')])
    expect(status, stderr).toBe(0)
    expect(differences(join(site, 'dist'))).toEqual([])
  })

  test('byte-order marks, CR alone, mixed endings and UTF-16 build byte for byte as the original', async () => {
    const site = copySite()
    const saves = [
      (text: string) => Buffer.concat([BOM, Buffer.from(text)]),
      (text: string) => Buffer.from(text.replace(/\n/g, '\r')),
      // Mixed, as after pasting from another file: CRLF and LF in turn. (CR then LF is one CRLF.)
      (text: string) => Buffer.from(text.replace(/\n/g, (_, i: number) => (i % 2 ? '\r\n' : '\n'))),
      (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/\n/g, '\r\n'), 'utf16le')]),
      (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
    ]
    // Each file gets one of the five, in turn: site.yaml, both locale files and pages of every kind.
    let n = 0
    resave(site, (text) => saves[n++ % saves.length]!(text))
    const { status, stderr } = await runCli(['--root', site, '--out', join(site, 'dist')])
    expect(status, stderr).toBe(0)
    expect(differences(join(site, 'dist'))).toEqual([])
  })

  test('a page saved in another encoding is refused, naming the file, line and column, and the previous site stays', async () => {
    const site = copySite()
    const out = join(site, 'dist')
    expect((await runCli(['--root', site, '--out', out])).status).toBe(0)
    const file = 'content/cn/services/rhinoplasty.md'
    const text = readFileSync(join(site, file), 'utf8')
    // GBK, as a Chinese-language Windows editor may save it; its title is on line 2.
    const gbk = Buffer.from(new TextEncoder().encode(text.split('\n')[0] + '\n'))
    writeFileSync(join(site, file), Buffer.concat([gbk, Buffer.from('title: '), Buffer.from([0xb1, 0xc7, 0xd5, 0xfb, 0xd0, 0xce]), Buffer.from('\n' + text.split('\n').slice(2).join('\n'))]))
    const { status, stderr } = await runCli(['--root', site, '--out', out])
    expect(status).toBe(1)
    expect(stderr).toContain(`${file}:2:8  NotUtf8  The file is not UTF-8 text: byte 0xB1`)
    expect(stderr).toContain('hint: Save the file again with the encoding "UTF-8"')
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(differences(out)).toEqual([])
  })
})
