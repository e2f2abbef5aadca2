/**
 * The Markdown file the content editor's preview makes of an entry (src/editor/page-source.ts),
 * read back the way the build reads a saved page: front matter and body come back as typed.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { splitFile } from '../../src/content/parse.ts'
import { parseYaml } from '../../src/content/yaml.ts'
import { markdownFile } from '../../src/editor/page-source.ts'
import { body, frontMatter, runOptions, type PageKind } from '../support/damage.ts'

const KINDS: PageKind[] = ['home', 'service', 'doctor', 'article', 'page']

test('an entry with any text an editor may type reads back as typed', () => {
  const entry = fc.constantFrom(...KINDS).chain((kind) => fc.tuple(frontMatter(kind, { slug: true, draft: true, template: 'maybe' }), body))
  fc.assert(fc.property(entry, ([data, markdown]) => {
    const text = markdownFile({ ...data, body: markdown })
    const { yamlText, body: read } = splitFile({ path: 'content/en/entry.md', text })
    const parsed = parseYaml(yamlText, 'content/en/entry.md', 2)
    if (Array.isArray(parsed)) expect.fail(`${parsed.map((d) => d.message).join('\n')}\n${text}`)
    // Fields left empty are left out, as Decap would otherwise save them ('' and [] are values to the build).
    const typed = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== '' && !(Array.isArray(value) && value.length === 0)))
    expect(JSON.stringify(parsed.data), text).toBe(JSON.stringify(typed))
    expect(read.markdown.trimEnd()).toBe(markdown.trimEnd())
  }), runOptions(300))
})
