/** The advertising-compliance linter of `clinic-build check`, on literal inputs and on the real site. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, test } from 'vitest'
import { build } from '../../src/build/build.ts'
import { lintCompliance, type ComplianceInput } from '../../src/check/compliance.ts'
import { formatDiagnostic } from '../../src/errors.ts'
import { readProject } from '../../src/content/read.ts'
import { parseSite } from '../../src/content/site.ts'
import type { SiteConfig, SourceFile } from '../../src/types.ts'
import { projectRoot } from '../support/helpers.ts'

const site = parseSite({ path: 'content/site.yaml', text: readFileSync(join(projectRoot, 'content/site.yaml'), 'utf8') }).site as SiteConfig
const withDoctor = (doctor: Partial<SiteConfig['doctors'][number]>): SiteConfig => ({ ...site, doctors: [site.doctors[0]!, { ...site.doctors[1]!, ...doctor }] })
const generalPractitioner = withDoctor({ register: 'general', specialty: undefined })

const lint = (input: Partial<ComplianceInput>) => lintCompliance({ sources: [], staticFiles: [], pages: [], site, ...input })
const lintFile = (path: string, text: string, onSite = site) => lint({ sources: [{ path, text }], site: onSite })
const lintMarkdown = (text: string, onSite = site) => lintFile('content/en/page.md', text, onSite)

/** A sentence with the words a rule must find in braces: 'The {best} clinic' -> its text, the words and their column. */
function marked(sentence: string) {
  const column = sentence.indexOf('{') + 1
  return { text: sentence.replace(/[{}]/g, ''), words: sentence.slice(column, sentence.indexOf('}')), column }
}

/** Expects `rule` to report the braced words of `sentence`, written on line 3 of a Markdown page. */
function expectCaught(rule: string, sentence: string, onSite = site) {
  const { text, words, column } = marked(sentence)
  expect(lintMarkdown(`# A page\n\n${text}\n`, onSite)).toContainEqual(expect.objectContaining({
    code: rule, file: 'content/en/page.md', line: 3, column, message: expect.stringContaining(`"${words}" `),
  }))
}

describe('each rule', () => {
  const caught: [string, string][] = [
    ['SUPERLATIVE', 'We are the {best} clinic for eyelid surgery.'],
    ['SUPERLATIVE', 'A {world-class} team of surgeons.'],
    ['SUPERLATIVE', '我们是新加坡{最好}的整形诊所。'],
    ['GUARANTEE', 'Natural results are {guaranteed}.'],
    ['GUARANTEE', 'A {painless} procedure.'],
    ['GUARANTEE', '{保证}效果自然。'],
    ['TIME_PROMISE', 'See results {in 2 weeks}.'],
    ['TIME_PROMISE', 'You will be back to work {within 3 days}.'],
    ['TIME_PROMISE', '{3天}见效。'],
    ['TIME_PROMISE', '术后{两周}即可恢复上班。'],
    ['COMPARISON', '{Unlike other clinics}, we plan every operation ourselves.'],
    ['COMPARISON', '我们的技术{胜过}别人。'],
    ['BEFORE_AFTER_TEXT', 'See our {before-and-after photos}.'],
    ['BEFORE_AFTER_TEXT', '查看{前后对比}。'],
    ['TESTIMONIAL', 'Read our {patient reviews}.'],
    ['TESTIMONIAL', 'A {5-star} experience.'],
    ['TESTIMONIAL', '患者{好评}如潮。'],
    ['ENDORSEMENT', '{As seen on} Channel 8.'],
    ['ENDORSEMENT', '深受{网红}喜爱。'],
    ['PROMOTION', 'Book a {free consultation} this month.'],
    ['PROMOTION', 'Eyelid surgery at {20% off}.'],
    ['PROMOTION', '本月{特价}。'],
    ['PRICE_FORM', 'Eyelid surgery costs {from S$3},500.'],
    ['PRICE_FORM', 'Pay in {instalments}.'],
    ['PRICE_FORM', '双眼皮手术{低至}3000元。'],
    ['PRICE_FORM', '双眼皮手术{3000元起}。'],
    ['AWARD', 'Dr Goh received an {award} in 2020.'],
    ['AWARD', '诊所{荣获}多项大奖。'],
    ['FEAR_APPEAL', 'Do not let {ugly} eyelids ruin your photos.'],
    ['FEAR_APPEAL', '告别{自卑}。'],
    ['STAT_CLAIM', 'Over {5,000 procedures} performed.'],
    ['STAT_CLAIM', '手术{成功率}很高。'],
  ]
  test.each(caught)('%s catches: %s', (rule, sentence) => expectCaught(rule, sentence))

  const innocent: [string, string][] = [
    ['SUPERLATIVE', 'It is best to stop smoking six weeks before surgery.'],
    ['SUPERLATIVE', '第一次咨询时，医生会了解您的病史。'],
    ['GUARANTEE', 'The scar is permanent but usually fades over a year.'],
    ['GUARANTEE', '所有手术都有风险。'],
    ['TIME_PROMISE', 'Recovery usually takes one to two weeks.'],
    ['TIME_PROMISE', 'Stitches are removed after about a week.'],
    ['TIME_PROMISE', 'The operation takes 2 hours.'],
    ['TIME_PROMISE', '一般需要一至两周恢复。'],
    ['TIME_PROMISE', '许多人在七至十天后可以回到办公室上班。'],
    ['COMPARISON', 'Compared with traditional liposuction, VASER uses ultrasound.'],
    ['COMPARISON', '与传统抽脂相比，VASER使用超声波。'],
    ['BEFORE_AFTER_TEXT', 'Avoid smoking before and after surgery.'],
    ['BEFORE_AFTER_TEXT', '术前检查包括验血。'],
    ['TESTIMONIAL', 'Dr Quah reviewed this page.'],
    ['TESTIMONIAL', 'Your surgeon will review your medicines.'],
    ['TESTIMONIAL', '柯医生审阅了本页内容。'],
    ['ENDORSEMENT', 'Take the painkillers recommended by your surgeon.'],
    ['ENDORSEMENT', '请按照医生的建议服药。'],
    ['PROMOTION', 'The clinic is smoke-free.'],
    ['PROMOTION', '请按时复诊。'],
    ['PRICE_FORM', 'The consultation fee is S$150, payable on the day.'],
    ['PRICE_FORM', '咨询费为150新元。'],
    ['AWARD', 'The clinic is licensed by the Ministry of Health.'],
    ['FEAR_APPEAL', 'Drooping eyelids can limit your field of vision.'],
    ['FEAR_APPEAL', '眼睑下垂可能影响视野。'],
    ['STAT_CLAIM', 'Most procedures take one to three hours.'],
    ['STAT_CLAIM', '大多数手术需要一至三小时。'],
  ]
  test.each(innocent)('%s lets pass: %s', (_rule, sentence) => expect(lintMarkdown(`# A page\n\n${sentence}\n`)).toEqual([]))

  test('warnings ask for review; the other rules are errors', () => {
    const severity = (sentence: string) => lintMarkdown(sentence)[0]?.severity
    expect([severity('An award.'), severity('Ugly.'), severity('5,000 patients.'), severity('<https://instagram.com/x>')]).toEqual(['warning', 'warning', 'warning', 'warning'])
    expect([severity('The best.'), severity('Painless.'), severity('Gifts.')]).toEqual(['error', 'error', 'error'])
  })

  test('the message quotes the words and says what to write instead; the hint names the provision', () => {
    const [finding] = lintMarkdown('The best.')
    expect(finding!.message).toMatch(/^"best" is a superlative\b.*: .*instead\.$/)
    expect(finding!.hint).toContain('reg 5(1)(e)')
  })

  test('English words are caught on Chinese pages, and Chinese words on English pages', () => {
    expect(lintFile('content/cn/page.md', '我们提供free consultation。')).toMatchObject([{ code: 'PROMOTION', column: 5 }])
    expect(lintMarkdown('Our 优惠 this month.')).toMatchObject([{ code: 'PROMOTION', column: 5 }])
  })

  test('every rule has a severity, a provision, a message, and patterns in both languages or addresses', () => {
    const rules = parse(readFileSync(join(projectRoot, 'src/compliance/rules.yaml'), 'utf8')) as Record<string, Record<string, unknown>>
    expect(Object.keys(rules).sort()).toEqual(['AWARD', 'BEFORE_AFTER_IMAGE', 'BEFORE_AFTER_TEXT', 'COMPARISON', 'ENDORSEMENT', 'EXT_LINK', 'FEAR_APPEAL',
      'GUARANTEE', 'PRICE_FORM', 'PROMOTION', 'SPECIALIST_CLAIM', 'STAT_CLAIM', 'SUPERLATIVE', 'TESTIMONIAL', 'TIME_PROMISE'])
    for (const [id, rule] of Object.entries(rules)) {
      expect(['error', 'warning'], id).toContain(rule.severity)
      expect(rule, id).toMatchObject({ basis: expect.any(String), message: expect.any(String) })
      expect(id === 'EXT_LINK' ? rule.hosts : rule.zh, id).toEqual(expect.arrayContaining([expect.any(String)]))
      expect(rule.en, id).toEqual(expect.arrayContaining([expect.any(String)]))
    }
  })
})

describe('where words are read', () => {
  test('front matter values at their line in the file, but not keys', () => {
    expect(lintMarkdown('---\ntitle: The best clinic\nbest: Care\n---\n\nText.\n')).toMatchObject([{ code: 'SUPERLATIVE', line: 2, column: 12 }])
  })
  test('code, comments, link addresses and e-mail addresses are not prose', () => {
    expect(lintMarkdown('Run `best`.\n<!-- the best -->\n[Eyelids](/services/best-eyelid/) and sales@clinic.example\n')).toEqual([])
  })
  test('locale strings at their line and column, in folded text too', () => {
    const text = 'home:\n  eyebrow: The best clinic\ndisclaimer:\n  medical: >-\n    General information.\n    Results are guaranteed.\n'
    expect(lintFile('locales/en-SG.yaml', text)).toMatchObject([
      { code: 'SUPERLATIVE', file: 'locales/en-SG.yaml', line: 2, column: 16 },
      { code: 'GUARANTEE', line: 6, column: 17 },
    ])
  })
})

describe('images', () => {
  test('file names referenced in Markdown', () => {
    expectCaught('BEFORE_AFTER_IMAGE', '![Nose](/images/{before-after}-1.jpg)')
    expectCaught('BEFORE_AFTER_IMAGE', '![Nose](/images/nose-{ba}-2.png)')
  })
  test('alt text, in English and Chinese', () => {
    expectCaught('BEFORE_AFTER_IMAGE', '![{After} rhinoplasty](/images/nose.jpg)')
    expectCaught('BEFORE_AFTER_IMAGE', '![鼻整形{术后}](/images/nose.jpg)')
  })
  test('the hero image and its alt text in front matter', () => {
    const found = lintMarkdown('---\ntitle: Nose\nimage: /images/result-3.jpg\nimageAlt: 鼻整形效果\n---\n')
    expect(found).toMatchObject([{ code: 'BEFORE_AFTER_IMAGE', line: 3, column: 16 }, { code: 'BEFORE_AFTER_IMAGE', line: 4, column: 14 }])
  })
  test('files under static/', () => {
    expect(lint({ staticFiles: ['images/arches.jpg', 'images/after_2.webp', 'favicon.svg'] })).toMatchObject([{ code: 'BEFORE_AFTER_IMAGE', file: 'static/images/after_2.webp' }])
  })
  test('images beside the Markdown under content/', () => {
    expect(lint({ contentImages: ['en/blog/timeline.png', 'cn/services/img/before-1.jpg'] })).toMatchObject([{ code: 'BEFORE_AFTER_IMAGE', file: 'content/cn/services/img/before-1.jpg' }])
  })
  test('words that merely contain "after" pass', () => {
    expect(lintMarkdown('![Aftercare kit at the reception](/images/aftercare-kit.jpg)')).toEqual([])
  })
})

describe('links to social and review sites', () => {
  test('are reported with the address', () => {
    expectCaught('EXT_LINK', '[Follow us]({https://www.instagram.com/amberlin/})')
    expectCaught('EXT_LINK', 'Our page: {https://www.xiaohongshu.com/user/1}')
    expectCaught('EXT_LINK', '[Map]({https://www.google.com/maps/place/Clinic/reviews})')
    expect(lintFile('content/site.yaml', 'social: https://facebook.com/amberlin\n')).toMatchObject([{ code: 'EXT_LINK', line: 1, column: 9, message: expect.stringContaining('"https://facebook.com/amberlin"') }])
  })
  test('other sites, and a map without reviews, pass', () => {
    expect(lintMarkdown('[The SMC register](https://www.healthprofessionals.gov.sg/smc) and [map](https://www.google.com/maps/search/?api=1&query=1.3,103.8) and https://notinstagram.com/')).toEqual([])
  })
})

describe('specialist titles', () => {
  const claims = ['Dr Goh is a {plastic surgeon}.', 'Dr Goh is a {Specialist} in Plastic Surgery.', '吴医生是{整形外科医生}。', '吴医生是整形外科{专科医生}。']
  test.each(claims)('are errors when a doctor is not on the Register of Specialists: %s', (sentence) => expectCaught('SPECIALIST_CLAIM', sentence, generalPractitioner))
  test.each(claims)('are allowed when every doctor is a registered specialist: %s', (sentence) => expect(lintMarkdown(marked(sentence).text)).toEqual([]))
  test('a doctor on the specialist register without a specialty does not allow them', () => {
    expectCaught('SPECIALIST_CLAIM', 'Dr Goh is a {plastic surgeon}.', withDoctor({ specialty: undefined }))
  })
  test('naming the Register of Specialists, or a society, claims nothing', () => {
    const text = 'Check the Register of Specialists and the specialist register. 专科医生名册。Society of Plastic, Reconstructive and Aesthetic Surgeons.'
    expect(lintMarkdown(text, generalPractitioner)).toEqual([])
  })
  test('the register declared in the site configuration is not a claim', () => {
    expect(lintFile('content/site.yaml', 'doctors:\n  - slug: dr-a\n    register: specialist\n', generalPractitioner)).toEqual([])
  })
})

describe('structured data of built pages', () => {
  const page = (json: string) => ({ path: 'cn/contact/index.html', html: `<!doctype html>\n<html><head>\n<script type="application/ld+json">${json}</script></head></html>` })
  const at = (json: string, value: string) => '<script type="application/ld+json">'.length + json.indexOf(value) + 1

  test('a Review or AggregateRating is a testimonial, at its line and column in the built file', () => {
    const json = '{"@graph":[{"@type":"Review","reviewBody":"Nice"},{"@type":["AggregateRating"],"ratingValue":5}]}'
    expect(lint({ pages: [page(json)] })).toMatchObject([
      { code: 'TESTIMONIAL', file: 'cn/contact/index.html', line: 3, column: at(json, 'Review'), message: expect.stringContaining('"Review"') },
      { code: 'TESTIMONIAL', line: 3, column: at(json, 'AggregateRating') },
    ])
  })
  test('words the templates add are read; addresses are checked as links', () => {
    const json = '{"@type":"Physician","jobTitle":"Top-rated surgeon","sameAs":["https://www.tiktok.com/@clinic"]}'
    expect(lint({ pages: [page(json)] })).toMatchObject([
      { code: 'SUPERLATIVE', line: 3, column: at(json, 'Top-rated') },
      { code: 'EXT_LINK', line: 3, column: at(json, 'https://www.tiktok') },
    ])
  })
  test('values copied from a source are left to the source, where an allow comment can justify them', () => {
    const source: SourceFile = { path: 'content/en/page.md', text: '---\ntitle: T\ndescription: Why "the best" is a word to avoid # lint-allow SUPERLATIVE: names the word\n---\n' }
    const found = lint({ sources: [source], pages: [page('{"description":"Why \\"the best\\" is a word to avoid"}')] })
    expect(found.map((d) => [d.code, d.file])).toEqual([['LintAllowed', 'content/en/page.md']])
  })
})

describe('lint-allow comments', () => {
  test('a comment with a reason on the line before turns the error into a warning that says why', () => {
    expect(lintMarkdown('Intro.\n<!-- lint-allow SUPERLATIVE: quoting the MOH guideline title -->\nThe "best" clinic.\n')).toEqual([{
      code: 'LintAllowed', severity: 'warning', file: 'content/en/page.md', line: 3, column: 6,
      message: 'SUPERLATIVE allowed here: "best" — reason: quoting the MOH guideline title',
    }])
  })
  test('on the line of the match, in Markdown and in YAML', () => {
    expect(lintMarkdown('The best clinic. <!-- lint-allow SUPERLATIVE: a quotation -->\n')).toMatchObject([{ code: 'LintAllowed', line: 1 }])
    expect(lintFile('locales/en-SG.yaml', 'cta:\n  title: The best care  # lint-allow SUPERLATIVE: a quoted title\n')).toMatchObject([{ code: 'LintAllowed', line: 2, column: 14 }])
    expect(lintFile('locales/en-SG.yaml', 'cta:\n  # lint-allow SUPERLATIVE: a quoted title\n  title: The best care\n')).toMatchObject([{ code: 'LintAllowed', line: 3 }])
  })
  test('without a reason it allows nothing and is an error itself', () => {
    expect(lintMarkdown('<!-- lint-allow SUPERLATIVE -->\nThe best clinic.\n').map((d) => [d.code, d.severity, d.line, d.column])).toEqual([
      ['SUPERLATIVE', 'error', 2, 5],
      ['LintAllowWithoutReason', 'error', 1, 1],
    ])
  })
  test('one that suppresses nothing is a warning', () => {
    const found = lintMarkdown('<!-- lint-allow GUARANTEE: a quotation -->\nThe best clinic.\n\n<!-- lint-allow SUPERLATIVE: too far away -->\n\nThe best.\n')
    expect(found.map((d) => [d.code, d.severity, d.line])).toEqual([
      ['SUPERLATIVE', 'error', 2],
      ['SUPERLATIVE', 'error', 6],
      ['UnusedLintAllow', 'warning', 1],
      ['UnusedLintAllow', 'warning', 4],
    ])
  })
})

describe('the real site', () => {
  let input: ComplianceInput
  beforeAll(async () => {
    const project = await readProject(projectRoot, projectRoot)
    const { files } = await build({ root: projectRoot, write: false, cache: false })
    input = {
      sources: [project.siteFile, ...project.content, ...project.localeFiles],
      staticFiles: project.staticFiles,
      site: parseSite(project.siteFile).site!,
      pages: files.filter((f) => f.path.endsWith('.html')).map((f) => ({ path: f.path, html: f.contents as string })),
    }
  })

  test('its content, messages, images and structured data produce no compliance error', () => {
    expect(input.pages.length).toBeGreaterThan(40)
    expect(lintCompliance(input).filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([])
  })
  test('its specialist titles pass only because both doctors are registered specialists', () => {
    const found = lintCompliance({ ...input, site: generalPractitioner })
    expect(found.filter((d) => d.code === 'SPECIALIST_CLAIM').map((d) => d.file)).toEqual(expect.arrayContaining(['content/en/dr-evelyn-quah.md', 'content/cn/dr-evelyn-quah.md']))
  })
})
