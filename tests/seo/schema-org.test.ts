/**
 * Every JSON-LD block of the built site, in both languages, judged against the schema.org
 * vocabulary of the release named in src/check/schema-org-vocabulary.json, by a judge that
 * knows nothing of the site (src/check/structured-data.ts, which `check` runs too).
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { build, type BuildResult } from '../../src/index.ts'
import { readHtml, select, textOf } from '../../src/check/html.ts'
import { judgeJsonLd, vocabulary } from '../../src/check/structured-data.ts'
import { projectRoot } from '../support/helpers.ts'

let result: BuildResult
beforeAll(async () => { result = await build({ root: projectRoot, write: false }) })

/** Each page's JSON-LD documents, by the page's path. */
function documents(): Map<string, unknown[]> {
  const found = new Map<string, unknown[]>()
  for (const route of result.table!.routes) {
    const html = result.files.find((f) => f.path === route.output)!.contents as string
    const scripts = select(readHtml(route.output, html).doc, (el) => el.name === 'script' && el.attribs.type === 'application/ld+json')
    if (scripts.length > 0) found.set(route.output, scripts.map((s) => JSON.parse(textOf(s)) as unknown))
  }
  return found
}

describe(`schema.org ${vocabulary().release}`, () => {
  test('every page of every template, in both languages, has structured data that schema.org defines', () => {
    const found = documents()
    expect([...found.keys()].filter((p) => p.startsWith('cn/')).length).toBeGreaterThan(10)
    const findings = [...found].flatMap(([path, docs]) => docs.flatMap((doc) => judgeJsonLd(doc).map((f) => `${path}: ${f}`)))
    expect(findings).toEqual([])
  })

  test('the judge finds what it is there to find', () => {
    const clinic = { '@type': 'MedicalClinic', name: 'A', inLanguage: 'en', openingHoursSpecification: [{ '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '09:00', closes: '18:00:00' }] }
    expect(judgeJsonLd({ '@context': 'https://schema.org', '@graph': [clinic] })).toEqual([
      'MedicalClinic.inLanguage: not a property of MedicalClinic (it belongs to BroadcastService, CommunicateAction, CreativeWork, Event, LinkRole, PronounceableText, WriteAction)',
      'OpeningHoursSpecification.opens: "09:00" is not written as schema.org\'s Time (^\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$)',
    ])
    expect(judgeJsonLd({ '@context': 'https://schema.org', '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Female', opns: 1, latitude: true })).toEqual([
      'OpeningHoursSpecification.dayOfWeek: Female is not one of DayOfWeek',
      'OpeningHoursSpecification.opns: not a schema.org property',
      'OpeningHoursSpecification.latitude: not a property of OpeningHoursSpecification (it belongs to GeoCoordinates, Place)',
      'OpeningHoursSpecification.latitude: true or false where it takes Number, Text',
    ])
    expect(judgeJsonLd({ '@context': 'https://schema.org', '@type': 'Clinic', practicesAt: { '@type': 'Person' } })).toEqual(['graph: Clinic is not a schema.org type'])
    expect(judgeJsonLd({ '@context': 'https://schema.org', '@type': 'IndividualPhysician', practicesAt: { '@type': 'Person', name: 'B' } })).toEqual([
      'IndividualPhysician.practicesAt: a Person where it takes MedicalOrganization',
    ])
  })
})
