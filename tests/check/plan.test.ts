// Which pages Chromium opens: one of each kind (template, locale, islands), and the pages whose
// Markdown holds what only a browser can judge.
import { describe, expect, test } from 'vitest'
import { browserReason, kindOf, planVisits, type CheckedPage } from '../../src/check/plan.ts'
import { readDigest } from '../../src/check/digest.ts'

const islandsHtml = (islands: string[]) => `<main>${islands.map((i) => `<div data-island="${i}"></div>`).join('')}</main>`
const page = (path: string, template: string, markdown?: string, islands: string[] = []): CheckedPage => ({
  path, hash: path, html: islandsHtml(islands), digest: readDigest(islandsHtml(islands), ''),
  facts: { size: 1, mtimeMs: 1, template: template as never, locale: path.startsWith('cn/') ? 'cn' : 'en' },
  ...(markdown === undefined ? {} : { source: { file: `content/${path}.md`, text: `---\ntitle: x\n---\n${markdown}` } }),
})

describe('browserReason', () => {
  test('a Markdown table or embedded HTML needs the browser; plain Markdown and code do not', () => {
    expect(browserReason(page('a', 'article', '| a | b |\n|---|---|\n| 1 | 2 |\n'))).toBe('a table')
    expect(browserReason(page('a', 'article', 'Text <span lang="en">here</span>.'))).toBe('embedded HTML')
    expect(browserReason(page('a', 'article', '## Heading\n\nA [link](/contact/) and *emphasis*; 3 < 4.'))).toBeUndefined()
    expect(browserReason(page('a', 'article', 'Write `<span>` or:\n\n```html\n<div>x</div>\n```\n'))).toBeUndefined()
  })

  test('a page the last build did not write is opened itself', () => {
    expect(browserReason({ path: 'a.html', hash: 'h', html: '<main></main>', digest: readDigest('<main></main>', '') })).toBe('not written by the last build')
  })
})

describe('planVisits', () => {
  const pages = [
    page('blog/a', 'article', 'Plain.'), page('blog/b', 'article', '| a |\n|---|\n| 1 |'), page('blog/c', 'article', 'Plain.'),
    page('services/x', 'service', 'Plain.', ['tabs']), page('services/y', 'service', 'Plain.', ['accordion', 'tabs']),
    page('cn/services/x', 'service', 'Plain.', ['tabs']),
  ]

  test('one page of each kind, preferring a page opened for its own content', () => {
    const plan = planVisits(pages, () => false, () => false)
    expect(plan.visits.map((v) => [v.page.path, v.kinds])).toEqual([
      ['blog/b', ['article en ']],
      ['cn/services/x', ['service cn tabs']],
      ['services/x', ['service en tabs']],
      ['services/y', ['service en accordion,tabs']],
    ])
    expect(kindOf(pages[4]!)).toBe('service en accordion,tabs')
  })

  test('kinds and pages judged before are not opened again', () => {
    const plan = planVisits(pages, (kind) => kind.startsWith('service'), (p) => p.path === 'blog/b')
    expect(plan.visits.map((v) => [v.page.path, v.kinds])).toEqual([['blog/a', ['article en ']]])
  })
})
