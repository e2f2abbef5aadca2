/**
 * `clinic-build check`'s structured-data check on a built copy of the site: the shipped pages
 * pass schema.org's vocabulary; a page whose JSON-LD gives a type a property schema.org does not
 * define for it, or that is not JSON, is reported on that page; a second run judges nothing again.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { build } from '../../src/build/build.ts'
import { check } from '../../src/check/index.ts'
import { vocabulary } from '../../src/check/structured-data.ts'
import { copySite } from '../support/helpers.ts'

const site = copySite()
const out = join(site, 'dist')
const HOME = 'index.html'
const CONTACT = 'cn/contact/index.html'

beforeAll(async () => {
  expect((await build({ root: site, out })).ok).toBe(true)
}, 120_000)

afterAll(() => rmSync(site, { recursive: true, force: true }))

const structuredData = () => check({ root: site, out, only: ['structured-data'] })

test('the shipped pages pass, and a second run judges none again', async () => {
  const first = await structuredData()
  expect(first.findings).toEqual([])
  expect(first.counts['structured-data']).toMatchObject({ judged: first.pages, unchanged: 0 })
  const second = await structuredData()
  expect(second.counts['structured-data']).toMatchObject({ judged: 0, unchanged: first.pages })
}, 60_000)

test('a property schema.org does not give the type, and a block that is not JSON, are reported on their pages', async () => {
  const home = readFileSync(join(out, HOME), 'utf8')
  expect(home).toContain('"@type":"MedicalClinic"')
  writeFileSync(join(out, HOME), home.replace('"@type":"MedicalClinic"', '"@type":"MedicalClinic","inLanguage":"en"'))
  const contact = readFileSync(join(out, CONTACT), 'utf8')
  writeFileSync(join(out, CONTACT), contact.replace('<script type="application/ld+json">', '<script type="application/ld+json">{,'))
  const { findings, counts } = await structuredData()
  expect(counts['structured-data']).toMatchObject({ judged: 2 })
  expect(findings).toEqual([
    expect.objectContaining({ code: 'InvalidStructuredData', severity: 'error', file: CONTACT, message: expect.stringMatching(/not JSON/) }),
    expect.objectContaining({
      code: 'InvalidStructuredData', severity: 'error', file: HOME,
      message: expect.stringContaining(`schema.org ${vocabulary().release} defines: MedicalClinic.inLanguage: not a property of MedicalClinic`),
    }),
  ])
}, 60_000)
