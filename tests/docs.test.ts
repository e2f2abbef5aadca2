// The README and the guides in docs/ link to each other and name the project's files: every
// relative link must reach a file (and heading) that exists, and every path they name must too.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import remarkParse from 'remark-parse'
import remarkValidateLinks from 'remark-validate-links'
import { unified, type Plugin } from 'unified'
import { engine } from 'unified-engine'
import type { VFile } from 'vfile'
import { describe, expect, test } from 'vitest'
import { catalogue } from '../src/errors.ts'
import { projectRoot } from './support/helpers.ts'

const documents = ['README.md', 'docs/*.md', 'src/**/README.md', 'templates/README.md']

/** remark-validate-links over every document at once, so links between them are checked too. */
function brokenLinks(): Promise<{ files: number; problems: string[] }> {
  return new Promise((resolve, reject) => {
    engine({
      processor: unified().use(remarkParse),
      plugins: [[remarkValidateLinks as Plugin<unknown[]>, { repository: false }]],
      files: documents, cwd: projectRoot, extensions: ['md'],
      out: false, silent: true, quiet: true, ignoreName: '.no-ignore-file',
    }, (error, _code, context) => {
      if (error) return reject(error)
      const files = (context?.files ?? []) as VFile[]
      resolve({ files: files.length, problems: files.flatMap((f) => f.messages.map((m) => `${f.path}:${m.line}  ${m.reason}`)) })
    })
  })
}

describe('documentation', () => {
  test('every relative link in the README, docs/ and the folder READMEs reaches a file and heading', async () => {
    const { files, problems } = await brokenLinks()
    expect(files).toBeGreaterThanOrEqual(20)
    expect(problems).toEqual([])
  })

  // A move of a file leaves its old path in the prose unless something looks.
  test('every project path written in code spans exists', () => {
    const folders = /^(src|tests|templates|scripts|docs|bin)\// // the project's code; content/ paths are examples
    const missing: string[] = []
    for (const doc of ['README.md', 'docs/editors.md', 'docs/deploying.md', 'docs/architecture.md', 'docs/benchmarks.md']) {
      const text = readFileSync(join(projectRoot, doc), 'utf8')
      for (const [, span = ''] of text.matchAll(/`([^`\s]+)`/g)) {
        if (!folders.test(span) || /[<*…]/.test(span)) continue
        if (!existsSync(join(projectRoot, span))) missing.push(`${doc}: ${span}`)
      }
    }
    expect(missing).toEqual([])
  })

  test('every name in the error catalogue has a row in the editors\' guide', () => {
    const guide = readFileSync(join(projectRoot, 'docs/editors.md'), 'utf8')
    const names = Object.keys(catalogue)
    expect(names.length).toBeGreaterThan(20)
    expect(names.filter((name) => !guide.includes(`| \`${name}\``))).toEqual([])
  })
})
