/**
 * The axe-core rules judged from built HTML without a browser: each rule on a small page with the
 * problem and on the same page fixed, where findings point (Markdown line or built page), and the
 * real site, which passes axe in Chromium and so must pass here.
 */
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import axe from 'axe-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/build/build.ts'
import { contentFindings, staticRules, type PageSource } from '../../src/check/content-rules.ts'
import { copySite, edit, projectRoot } from '../support/helpers.ts'

const PATH = 'en/page/index.html'
const page = (body: string, html = '<html lang="en">') => `<!doctype html>${html}<head><title>A page</title></head><body><main>${body}</main></body></html>`
const findingsIn = (body: string) => contentFindings({ path: PATH, html: page(body) })
const codesIn = (body: string) => findingsIn(body).map((f) => f.code)
/** Rules axe-core 4.14 still ships (deprecated, off by default); a later axe without them makes them the site's own code. */
const hasRule = (id: string) => axe.getRules().some((r) => r.ruleId === id)
const DUPLICATE_ID = hasRule('duplicate-id') ? 'axe/duplicate-id' : 'DuplicateId'
const DUPLICATE_ID_ACTIVE = hasRule('duplicate-id-active') ? 'axe/duplicate-id-active' : DUPLICATE_ID

test('names the rules it judges, with the installed axe-core’s help text and link', () => {
  expect(staticRules()).toEqual([
    'image-alt', 'link-name', 'empty-heading', 'heading-order', 'duplicate-id-aria', ...['duplicate-id', 'duplicate-id-active'].filter(hasRule), 'valid-lang',
    'html-has-lang', 'html-lang-valid', 'th-has-data-cells', 'td-headers-attr', 'td-has-header', 'list', 'listitem', 'frame-title', 'object-alt',
  ])
  const html = page('<p>Before</p><img src="/images/chart.png">')
  expect(contentFindings({ path: PATH, html })).toEqual([{
    code: 'axe/image-alt', severity: 'error', file: PATH, line: 1, column: html.indexOf('<img') + 1,
    message: 'Images must have alternative text (img[src="/images/chart.png"])',
    hint: `How to fix it: https://dequeuniversity.com/rules/axe/${axe.version.replace(/\.\d+$/, '')}/image-alt`, // 4.14 for axe-core 4.14.1
  }])
})

test('gives the line and column of the element in the built page', () => {
  const html = '<!doctype html>\n<html lang="en">\n<body>\n  <p>Text</p>\n  <a href="/contact/"></a>\n</body>\n</html>\n'
  expect(contentFindings({ path: PATH, html })).toEqual([expect.objectContaining({ code: 'axe/link-name', file: PATH, line: 5, column: 3, message: 'Links must have discernible text (a[href="/contact/"])' })])
})

/** [rule, a body that breaks it once, bodies that keep it] */
const cases: [string, string, string[]][] = [
  ['image-alt', '<img src="/a.png">', ['<img src="/a.png" alt="A chart">', '<img src="/a.png" alt="">', '<img src="/a.png" role="presentation">', '<img src="/a.png" aria-label="A chart">', '<img src="/a.png" title="A chart">', '<span id="l">A chart</span><img src="/a.png" aria-labelledby="l">', '<div aria-hidden="true"><img src="/a.png"></div>', '<div hidden><img src="/a.png"></div>', '<noscript><img src="/pixel.gif"></noscript>', '<template><img src="/a.png"></template>']],
  ['image-alt', '<img src="/a.png" alt=" ">', []],
  ['image-alt', '<img src="/a.png" role="none" tabindex="0">', []],
  ['link-name', '<a href="/x/"></a>', ['<a href="/x/">Services</a>', '<a href="/x/"><img src="/i.png" alt="Services"></a>', '<a href="/x/" aria-label="Services"><svg aria-hidden="true"></svg></a>', '<a href="/x/" title="Services"></a>', '<a href="/x/"><span class="visually-hidden">Services</span></a>', '<a href="/x/"><svg><title>Services</title></svg></a>', '<a href="/x/"><span title="Services"></span></a>', '<span id="n" hidden>Services</span><a href="/x/" aria-labelledby="n"></a>', '<a href="/x/" aria-hidden="true" tabindex="-1"></a>', '<a name="top"></a>', '<h2 id="h">Services</h2><a href="/x/" aria-labelledby="h"></a>']],
  ['link-name', '<a href="/x/"><img src="/i.png" alt=""></a>', []],
  ['link-name', '<a href="/x/" aria-labelledby="nothing"><span role="img"></span></a>', []],
  ['link-name', '<a href="/x/"><span aria-hidden="true">→</span>&nbsp;</a>', []],
  ['empty-heading', '<h2></h2>', ['<h2>Recovery</h2>', '<h2 aria-label="Recovery"></h2>', '<h2 role="presentation"></h2>', '<h2><img src="/r.png" alt="Recovery"></h2>', '<div hidden><h2></h2></div>']],
  ['empty-heading', '<h2><span aria-hidden="true">Recovery</span></h2>', []],
  ['heading-order', '<h1>Eyelids</h1><h3>Recovery</h3>', ['<h1>Eyelids</h1><h2>Recovery</h2><h3>Week one</h3><h2>Risks</h2>', '<h2>Starts low</h2><h1>Then the title</h1>', '<h1>Eyelids</h1><div role="heading" aria-level="2">Recovery</div><h3>Week one</h3>', '<h1>Eyelids</h1><h3 aria-hidden="true">Recovery</h3>']],
  ['heading-order', '<h1>Eyelids</h1><h2 aria-level="4">Recovery</h2>', []],
  ['duplicate-id-aria', '<h2 id="t">Risks</h2><p id="t">Text</p><section aria-labelledby="t"></section>', ['<h2 id="t">Risks</h2><p id="u">Text</p><section aria-labelledby="t"></section>', '<label for="n">Name</label><input id="n">']],
  ['valid-lang', '<p lang="zz">Text</p>', ['<p lang="zh-Hans">文字</p>', '<p lang="en-SG">Text</p>', '<p lang="">Text</p>', '<p lang="zz"><span lang="en">Text</span></p>', '<p lang="zz" aria-hidden="true">Text</p>']],
  ['valid-lang', '<p xml:lang="english">Text</p>', []],
  ['th-has-data-cells', '<table><tr><th>Service</th><th>Price</th></tr></table>', ['<table><tr><th>Service</th><th>Price</th></tr><tr><td>Ear</td><td>$1</td></tr></table>', '<table><tr><th scope="row">Monday</th><td>09:00–18:00</td></tr><tr><th scope="row">Sunday</th><td>Closed</td></tr></table>']],
  ['td-headers-attr', '<table><tr><th id="h">Service</th></tr><tr><td headers="nope">Ear</td></tr></table>', ['<table><tr><th id="h">Service</th></tr><tr><td headers="h">Ear</td></tr></table>']],
  ['td-headers-attr', '<table><tr><th id="h">Service</th></tr><tr><td id="d" headers="h d">Ear</td></tr></table>', []],
  ['td-headers-attr', '<table><tr><th id="h">Service</th><th id="f">Fee</th></tr><tr><td id="d" headers="h">Ear</td><td headers="f d">$1</td></tr></table>', []],
  ['td-has-header', '<table><caption>Fees</caption><tr><td>Ear</td><td>$1</td><td>$2</td></tr><tr><td>Nose</td><td>$3</td><td>$4</td></tr><tr><td>Lids</td><td>$5</td><td>$6</td></tr></table>', ['<table><caption>Fees</caption><tr><th>Service</th><th>From</th><th>To</th></tr><tr><td>Ear</td><td>$1</td><td>$2</td></tr><tr><td>Nose</td><td>$3</td><td>$4</td></tr><tr><td>Lids</td><td>$5</td><td>$6</td></tr></table>', '<table><tr><td>Layout</td><td>table</td></tr><tr><td>of</td><td>cells</td></tr></table>']],
  ['list', '<ul><li>Ear</li><p>Nose</p></ul>', ['<ul><li>Ear</li><li>Nose</li></ul>', '<ol><li>Ear</li><script src="/a.js"></script><template><p>x</p></template></ol>', '<ul role="tablist"><button role="tab">Ear</button></ul>', '<ul><li>Ear</li><p aria-hidden="true">Nose</p></ul>', '<ul><div role="listitem">Ear</div></ul>']],
  ['list', '<ol><li>Ear</li>Nose</ol>', []],
  ['list', '<ul><li>Ear</li><li role="none">Nose</li></ul>', []],
  ['listitem', '<ul role="navigation"><li>Ear</li></ul>', []],
  ['listitem', '<div><li>Ear</li></div>', ['<menu><li>Ear</li></menu>', '<div role="list"><li>Ear</li></div>', '<ul role="not-a-role"><li>Ear</li></ul>', '<ul role="presentation"><li>Ear</li></ul>', '<div><li role="tab">Ear</li></div>']],
  ['frame-title', '<iframe src="https://www.google.com/maps/embed?pb=1"></iframe>', ['<iframe src="https://www.google.com/maps/embed?pb=1" title="Map of the clinic"></iframe>', '<iframe src="/x/" aria-label="Map"></iframe>', '<iframe src="/x/" tabindex="-1"></iframe>']],
  ['object-alt', '<object data="/brochure.pdf"></object>', ['<object data="/brochure.pdf" aria-label="Brochure"></object>', '<object data="/brochure.pdf" title="Brochure"></object>', '<object data="/brochure.pdf" role="presentation"></object>', '<object></object>']],
]

describe.each(cases)('%s', (rule, broken, kept) => {
  test(`finds ${broken}`, () => {
    expect(codesIn(broken)).toEqual([`axe/${rule}`])
  })
  test.each(kept.map((body) => [body]))('keeps %s', (body) => {
    expect(findingsIn(body)).toEqual([])
  })
})

describe('the document’s language', () => {
  test('is missing or empty', () => {
    expect(contentFindings({ path: PATH, html: page('<p>Text</p>', '<html>') })).toEqual([expect.objectContaining({ code: 'axe/html-has-lang', line: 1, column: 16, message: '<html> element must have a lang attribute (html)' })])
    expect(contentFindings({ path: PATH, html: page('<p>Text</p>', '<html lang=" ">') }).map((f) => f.code)).toEqual(['axe/html-has-lang'])
  })
  test('is not a language', () => {
    expect(contentFindings({ path: PATH, html: page('<p>Text</p>', '<html lang="english">') })).toEqual([expect.objectContaining({ code: 'axe/html-lang-valid', message: '<html> element must have a valid value for the lang attribute (html[lang="english"])' })])
  })
  test('is a language', () => {
    for (const html of ['<html lang="en">', '<html lang="zh">', '<html lang="zh-Hans-SG">', '<html lang="EN-sg">']) expect(contentFindings({ path: PATH, html: page('<p>Text</p>', html) })).toEqual([])
  })
})

describe('ids used twice', () => {
  test('once per id, listing the elements, at the second', () => {
    const html = page('<h2 id="risks">Risks</h2><p>Text</p><div id="risks">More</div><span id="risks"></span>')
    expect(contentFindings({ path: PATH, html })).toEqual([expect.objectContaining({
      code: DUPLICATE_ID, file: PATH, line: 1, column: html.indexOf('<div') + 1,
      message: DUPLICATE_ID === 'DuplicateId' ? expect.stringContaining('"risks"') : 'id attribute value must be unique (h2#risks, div#risks, span#risks)',
    })])
  })
  test('those that ARIA and labels refer to are duplicate-id-aria, not both', () => {
    expect(codesIn('<label for="n">Name</label><input id="n"><input id="n">')).toEqual(['axe/duplicate-id-aria'])
  })
  test('those of elements that take focus are duplicate-id-active', () => {
    expect(codesIn('<a id="x" href="/a/">A</a><p id="x">B</p>')).toEqual([DUPLICATE_ID_ACTIVE])
  })
  test('counts hidden elements but not template content', () => {
    expect(codesIn('<p id="a">One</p><p id="a" hidden>Two</p>')).toEqual([DUPLICATE_ID])
    expect(codesIn('<p id="a">One</p><template><p id="a">Two</p></template>')).toEqual([])
  })
})

test('heading-order names the heading before the jump', () => {
  expect(findingsIn('<h1>Eyelids</h1><h2 id="a">Recovery</h2><h4 id="b">Week one</h4>').map((f) => f.message)).toEqual(['Heading levels should only increase by one (h4#b after h2#a)'])
})

test('judges a page of many rules at once, each element once', () => {
  expect(codesIn('<img src="/a.png"><a href="/x/"></a><h1>A</h1><h3></h3><div><li>x</li></div>')).toEqual(['axe/image-alt', 'axe/link-name', 'axe/empty-heading', 'axe/heading-order', 'axe/listitem'])
})

describe('points at the Markdown the element came from', () => {
  const source: PageSource = {
    file: 'content/en/blog/eyelids.md',
    text: [
      '---', // 1
      'title: Eyelids', // 2
      '---', // 3
      '', // 4
      'See the [fees](/contact/#fees) and [](/services/ear/).', // 5
      '', // 6
      '## Recovery', // 7
      '', // 8
      '#### Week one', // 9
      '', // 10
      'A chart: <img src="chart.png"> and ![Chart](chart.png).', // 11
      '', // 12
      '## ', // 13
      '', // 14
      'In Chinese: <span lang="cn">中文</span>', // 15
      '', // 16
    ].join('\n'),
  }
  const built = page([
    '<header><a href="/cn/"></a><h1>Eyelids</h1></header>',
    '<article class="content prose">',
    '<p>See the <a href="/contact/#fees">fees</a> and <a href="/cn/services/ear/"></a>.</p>',
    '<h2 id="recovery">Recovery</h2><h4 id="week-one">Week one</h4>',
    '<p>A chart: <img src="/assets/images/chart.0a1b2c3d4e-960.png" loading="lazy"> and <img src="/assets/images/chart.0a1b2c3d4e-960.png" alt="Chart" loading="lazy">.</p>',
    '<h2 id="section"></h2>',
    '<p>In Chinese: <span lang="cn">中文</span></p>',
    '<p class="tags">Tags: <a href="/blog/"></a></p>',
    '</article>',
  ].join('\n'))
  const found = contentFindings({ path: 'blog/eyelids/index.html', html: built }, source)
  const at = (code: string) => found.filter((f) => f.code === code).map((f) => [f.file, f.line, f.column])

  test('an image by its file name, whatever the build renamed it to', () => {
    expect(at('axe/image-alt')).toEqual([['content/en/blog/eyelids.md', 11, 10]])
  })
  test('a link by the end of its path, with a locale added or not', () => {
    expect(at('axe/link-name')).toEqual([
      ['blog/eyelids/index.html', 1, built.indexOf('<a href="/cn/">') + 1], // the template's, not the Markdown's
      ['content/en/blog/eyelids.md', 5, 36],
      ['blog/eyelids/index.html', 8, built.split('\n')[7]!.indexOf('<a') + 1], // in the prose, but not written there
    ])
  })
  test('a heading by its text', () => {
    expect(at('axe/heading-order')).toEqual([['content/en/blog/eyelids.md', 9, 1]])
    expect(at('axe/empty-heading')).toEqual([['content/en/blog/eyelids.md', 13, 1]])
  })
  test('a lang attribute by its value', () => {
    expect(at('axe/valid-lang')).toEqual([['content/en/blog/eyelids.md', 15, 19]])
  })
  test('an id as written, or the heading that made it', () => {
    const withIds = page('<h2 id="risks">Risks</h2><div class="prose"><h3 id="risks">Risks</h3><p id="user-content-dose">A</p><p id="user-content-dose">B</p></div>')
    const text = '---\ntitle: X\n---\n\n### Risks\n\n<p id="dose">A</p>\n'
    expect(contentFindings({ path: PATH, html: withIds }, { file: 'content/en/x.md', text }).map((f) => [f.file, f.line, f.column])).toEqual([
      ['content/en/x.md', 5, 1],
      ['content/en/x.md', 7, 4],
    ])
  })
  test('nothing in the Markdown without a source', () => {
    expect(contentFindings({ path: 'blog/eyelids/index.html', html: built }).every((f) => f.file === 'blog/eyelids/index.html')).toBe(true)
  })
})

describe('the real site', () => {
  let result: BuildResult
  const sourceOf = (result: BuildResult, root: string, output: string): PageSource | undefined => {
    const docId = result.table!.routes.find((r) => r.output === output)?.docId
    return docId ? { file: docId, text: readFileSync(join(root, docId), 'utf8') } : undefined
  }
  const byPlace = (a: (string | number | undefined)[], b: (string | number | undefined)[]) => `${a[1]}`.localeCompare(`${b[1]}`) || Number(a[2]) - Number(b[2])
  const pagesOf = (result: BuildResult) => result.files.filter((f) => f.path.endsWith('.html') && !f.path.startsWith('admin/')).map((f) => ({ path: f.path, html: String(f.contents) }))

  beforeAll(async () => {
    result = await build({ root: projectRoot, write: false })
  })

  test('passes on every page, as it passes axe in Chromium', () => {
    const pages = pagesOf(result)
    expect(pages).toHaveLength(50)
    expect(pages.flatMap((p) => contentFindings(p, sourceOf(result, projectRoot, p.path)))).toEqual([])
  })

  test('points a problem planted in Markdown at its line, through the real build', async () => {
    const root = copySite()
    copyFileSync(join(projectRoot, 'static/favicon-32.png'), join(root, 'content/en/blog/chart.png'))
    const article = 'content/en/blog/a-guide-to-double-eyelid-surgery.md'
    edit(root, article, (text) => `${text}\n## Planted\n\n#### Too deep\n\nA chart: <img src="chart.png">\n\n[](/contact/)\n`)
    edit(root, 'content/cn/services/ear.md', (text) => `${text}\n[](/contact/)\n`)
    const planted = await build({ root, write: false })
    const lines = (file: string) => readFileSync(join(root, file), 'utf8').split('\n')
    const lineOf = (file: string, text: string) => lines(file).lastIndexOf(text) + 1
    const findings = pagesOf(planted).flatMap((p) => contentFindings(p, sourceOf(planted, root, p.path)))
    expect(findings.map((f) => [f.code, f.file, f.line, f.column]).sort(byPlace)).toEqual([
      ['axe/link-name', 'content/cn/services/ear.md', lineOf('content/cn/services/ear.md', '[](/contact/)'), 1],
      ['axe/heading-order', article, lineOf(article, '#### Too deep'), 1],
      ['axe/image-alt', article, lineOf(article, 'A chart: <img src="chart.png">'), 10],
      ['axe/link-name', article, lineOf(article, '[](/contact/)'), 1],
    ])
  })
})
