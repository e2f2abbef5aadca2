/** The translations check on literal pages: which blocks of a page's main content are in another language's script. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkTranslations } from '../../src/check/translations.ts'
import { parseSite } from '../../src/content/site.ts'
import type { SiteConfig } from '../../src/types.ts'
import { projectRoot } from '../support/helpers.ts'

const site = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') }).site as SiteConfig

/** A page in `lang` whose main content is `main`, beside its translation (so that no page is missing). */
function judge(lang: string, main: string) {
  const page = (path: string, html: string) => ({ path, html })
  const english = lang === 'en' ? `<!doctype html><html lang="en"><body>\n<main>${main}</main></body></html>` : '<!doctype html><html lang="en"><body><main><p>Hello.</p></main></body></html>'
  const chinese = lang === 'zh' ? `<!doctype html><html lang="zh"><body>\n<main>${main}</main></body></html>` : '<!doctype html><html lang="zh"><body><main><p>你好。</p></main></body></html>'
  return checkTranslations([page('about/index.html', english), page('cn/about/index.html', chinese)], [], site)
}

const englishParagraph = 'This paragraph was written in English and never translated into Chinese.'
const chineseParagraph = '这段文字是用中文写的，介绍诊所的服务时间、预约方法以及就诊前需要准备的资料和注意事项。'

describe('blocks in another script', () => {
  test('an English paragraph on a Chinese page is reported where it starts', () => {
    expect(judge('zh', `<h1>关于我们</h1><p>${englishParagraph}</p>`)).toEqual([expect.objectContaining({
      code: 'WrongLanguage', file: 'cn/about/index.html', line: 2, column: 20, message: expect.stringContaining('(zh): "This paragraph was written'),
    })])
  })

  test('a Chinese paragraph on an English page, and one in a third script, are reported', () => {
    const russian = 'Этот абзац написан по-русски и тоже не переведён на язык этой страницы.'
    expect(judge('en', `<p>${chineseParagraph}</p><p>${russian}</p>`).map((d) => d.message)).toEqual([
      expect.stringContaining('(en): "这段文字'), expect.stringContaining('(en): "Этот абзац'),
    ])
  })

  test('a paragraph mostly in the other script is reported; one mostly in its own, naming a clinic or a doctor, is not', () => {
    expect(judge('en', `<p>${chineseParagraph} Amberlin Clinic.</p>`)).toHaveLength(1)
    expect(judge('zh', `<p>${chineseParagraph}请联系 Amberlin Surgical Pte. Ltd. 的 Dr Evelyn Quah。</p>`)).toEqual([])
  })

  test('text in the page\'s own script, short blocks and passages marked with their language pass', () => {
    expect(judge('en', `<p>${englishParagraph}</p><ul><li>${englishParagraph}</li></ul>`)).toEqual([])
    expect(judge('zh', '<p>Dr Evelyn Quah, MBBS</p><p>Amberlin Surgical Pte. Ltd.</p>')).toEqual([])
    expect(judge('zh', `<p lang="en">${englishParagraph}</p><p>${chineseParagraph}<span lang="en">${englishParagraph}</span></p>`)).toEqual([])
  })

  test('Latin letters beyond ASCII are English text; a letter of another script after them is still found', () => {
    const accented = 'The café’s résumé of Zoë’s naïve “déjà vu” — 25 °C, ±2, © Amberlin — stays in one language.'
    expect(judge('en', `<p>${accented}</p><ul><li>${accented}</li></ul>`)).toEqual([])
    expect(judge('en', `<p>${accented}</p><p>${accented} ${chineseParagraph}</p>`)).toEqual([expect.objectContaining({ message: expect.stringContaining('(en): "The café') })])
  })

  test('a block is judged by its own language, and by its characters however they are written', () => {
    // Marked as Chinese, but written in English.
    expect(judge('en', `<p>${englishParagraph}</p><p lang="zh">${englishParagraph}</p>`)).toEqual([expect.objectContaining({ message: expect.stringContaining('(zh): "This paragraph') })])
    // Chinese written as character references.
    const referenced = [...chineseParagraph].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')
    expect(judge('en', `<p>${referenced}</p>`)).toEqual([expect.objectContaining({ message: expect.stringContaining('(en): "这段文字') })])
  })

  test('only the main content is read', () => {
    const page = `<!doctype html><html lang="zh"><body><nav><p>${englishParagraph}</p></nav><main><p>${chineseParagraph}</p></main><footer><p>${englishParagraph}</p></footer></body></html>`
    expect(checkTranslations([{ path: 'about/index.html', html: page.replace('lang="zh"', 'lang="en"').replace(chineseParagraph, englishParagraph) }, { path: 'cn/about/index.html', html: page }], [], site)).toEqual([])
  })
})
