// Bytes as any editor on any machine saves them -> the one text every later stage sees.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseDocs } from '../../src/content/parse.ts'
import { listFiles, readSource } from '../../src/content/read.ts'
import { parseSite } from '../../src/content/site.ts'
import { decodeSource } from '../../src/content/text.ts'
import { projectRoot } from '../support/helpers.ts'

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))))
const textOf = (b: Uint8Array) => {
  const decoded = decodeSource(b, 'content/en/x.md')
  if (!('text' in decoded)) throw new Error(decoded.problem.message)
  return decoded.text
}

describe('decodeSource', () => {
  test('line endings of Windows (CRLF), classic Mac (CR) and a mix all become LF', () => {
    expect(textOf(bytes('---\r\ntitle: A\r\n---\r\nBody\r\n'))).toBe('---\ntitle: A\n---\nBody\n')
    expect(textOf(bytes('---\rtitle: A\r---\rBody\r'))).toBe('---\ntitle: A\n---\nBody\n')
    expect(textOf(bytes('a\r\nb\rc\nd\r\n\r\ne'))).toBe('a\nb\nc\nd\n\ne')
  })

  test('a UTF-8 byte-order mark is dropped', () => {
    expect(textOf(bytes([0xef, 0xbb, 0xbf], '---\ntitle: 鼻整形\n'))).toBe('---\ntitle: 鼻整形\n')
  })

  test('UTF-16 with a byte-order mark, little- or big-endian, is read', () => {
    const text = '---\r\ntitle: 鼻整形 🙂\r\n---\r\n'
    const le = Buffer.from(text, 'utf16le')
    const be = Buffer.from(le).swap16()
    expect(textOf(bytes([0xff, 0xfe], [...le]))).toBe('---\ntitle: 鼻整形 🙂\n---\n')
    expect(textOf(bytes([0xfe, 0xff], [...be]))).toBe('---\ntitle: 鼻整形 🙂\n---\n')
  })

  test('another encoding is refused with NotUtf8 at the line and column of its first foreign byte', () => {
    // "title: 鼻" in GBK: 鼻 is 0xB1 0xC7, neither of which starts a UTF-8 character.
    const gbk = bytes('---\r\ntitle: ', [0xb1, 0xc7], '\r\n---\r\n')
    const decoded = decodeSource(gbk, 'content/cn/x.md')
    expect(decoded).toMatchObject({ problem: { code: 'NotUtf8', file: 'content/cn/x.md', line: 2, column: 8, severity: 'error' } })
    expect('problem' in decoded && decoded.problem.message).toContain('0xB1')
    expect('problem' in decoded && decoded.problem.hint).toContain('UTF-8')
  })

  test('a U+FFFD written in the file is text, not the foreign byte', () => {
    const decoded = decodeSource(bytes('a\uFFFDb\n', [0xe9], '\n'), 'locales/x.yaml')
    expect(decoded).toMatchObject({ problem: { code: 'NotUtf8', line: 2, column: 1 } })
  })
})

describe('paths from the file system', () => {
  test('are the names below the folder joined by forward slashes, sorted; a link to a file is a file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'clinic-list-'))
    for (const file of ['en/blog/how-to.md', 'cn/a b.md', 'site.yaml']) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      writeFileSync(path.join(dir, file), 'x')
    }
    symlinkSync(path.join(dir, 'site.yaml'), path.join(dir, 'en/linked.md'))
    symlinkSync(path.join(dir, 'en'), path.join(dir, 'cn/folder-link'))
    expect(await listFiles(dir)).toEqual(['cn/a b.md', 'en/blog/how-to.md', 'en/linked.md', 'site.yaml'])
    expect(await listFiles(path.join(dir, 'missing'))).toEqual([])
    rmSync(dir, { recursive: true, force: true })
  })

  test('give the pages the ids and URL paths the content names', async () => {
    const { site } = parseSite(readSource(projectRoot, 'content/site.yaml'))
    const markdown = (await listFiles(path.join(projectRoot, 'content'))).filter((f) => f.endsWith('.md'))
    const pages = parseDocs(markdown.map((f) => readSource(projectRoot, `content/${f}`)), site!).docs.map((d) => [d.id, d.locale, d.path])
    expect(markdown.length).toBeGreaterThan(40)
    expect(pages).toContainEqual(['content/cn/services/rhinoplasty.md', 'cn', '/services/rhinoplasty/'])
  })
})
