/**
 * A save writes the lines of the fields the editor changed and nothing else: the original file is
 * patched from what Decap CMS made of it, which here is written the way Decap writes (its key
 * order, its quoting, lines wrapped at 80 columns).
 */
import { stringify } from 'yaml'
import { describe, expect, test } from 'vitest'
import { faithfulSave } from '../../src/editor/faithful-save.ts'
import { changedLines } from '../support/helpers.ts'

const FIELDS = ['title', 'description', 'summary', 'reviewedBy', 'reviewedOn', 'tags', 'body']

/** The file Decap writes for these values: keys sorted its way, long lines folded. */
const decap = (values: Record<string, unknown>, body: string) => `---\n${stringify(values)}---\n${body}\n`

const TRICKY = `---
# The page's heading, as on the menu.
title: "Ear Surgery (Otoplasty)"   # keep it short
description: Otoplasty reshapes ear cartilage to set prominent ears closer to the head; earlobe repair restores torn or stretched earlobes, a line well over eighty columns.
summary: >
  Reshaping prominent ears and repairing
  torn earlobes.
notes: |
  Kept as written:
    indented line
tags: [ears, face]
reviewedBy: 'dr-evelyn-quah'
reviewedOn: 2026-10-15
internal: a key of no field
---

## What it is

Text.
`

const VALUES = {
  title: 'Ear Surgery (Otoplasty)',
  description: 'Otoplasty reshapes ear cartilage to set prominent ears closer to the head; earlobe repair restores torn or stretched earlobes, a line well over eighty columns.',
  summary: 'Reshaping prominent ears and repairing torn earlobes.\n',
  notes: 'Kept as written:\n  indented line\n',
  tags: ['ears', 'face'],
  reviewedBy: 'dr-evelyn-quah',
  reviewedOn: '2026-10-15',
}
const FIELDS_WITH_NOTES = [...FIELDS.slice(0, 3), 'notes', ...FIELDS.slice(3)]

describe('a save of an existing page', () => {
  test('nothing changed: nothing to write, whatever Decap made of the file', () => {
    const sorted = Object.fromEntries(Object.entries(VALUES).reverse())
    expect(faithfulSave(TRICKY, decap(sorted, '## What it is\n\nText.'), FIELDS_WITH_NOTES)).toBeUndefined()
  })

  test('one field changed: its line alone, in its quoting, with its comment', () => {
    const saved = faithfulSave(TRICKY, decap({ ...VALUES, title: 'Ear Surgery' }, '## What it is\n\nText.'), FIELDS_WITH_NOTES)!
    expect(changedLines(TRICKY, saved)).toEqual(['-title: "Ear Surgery (Otoplasty)"   # keep it short', '+title: "Ear Surgery"   # keep it short'])
  })

  test('a long line is written on one line however long', () => {
    const description = `${VALUES.description} And three words.`
    const saved = faithfulSave(TRICKY, decap({ ...VALUES, description }, '## What it is\n\nText.'), FIELDS_WITH_NOTES)!
    expect(changedLines(TRICKY, saved)).toEqual([`-description: ${VALUES.description}`, `+description: ${description}`])
  })

  test('a folded block stays folded, a literal one literal, a flow list a flow list', () => {
    const values = { ...VALUES, summary: 'Reshaping ears.\n', notes: 'Kept:\n  indented\n', tags: ['ears', 'face', 'children'] }
    const saved = faithfulSave(TRICKY, decap(values, '## What it is\n\nText.'), FIELDS_WITH_NOTES)!
    expect(changedLines(TRICKY, saved)).toEqual([
      '-  Reshaping prominent ears and repairing', '-  torn earlobes.', '-notes: |', '-  Kept as written:', '-    indented line', '-tags: [ears, face]',
      '+  Reshaping ears.', '+notes: |', '+  Kept:', '+    indented', '+tags: [ears, face, children]',
    ])
  })

  test('a cleared field is removed, a new one goes where the schema puts it, a key of no field stays', () => {
    const file = '---\ntitle: Ear\nreviewedOn: 2026-10-15\ninternal: yes\n---\nText.\n'
    const { reviewedOn: _, ...rest } = { title: 'Ear', reviewedOn: '2026-10-15' }
    const saved = faithfulSave(file, decap({ ...rest, reviewedOn: '', summary: 'New summary.' }, 'Text.'), FIELDS)
    expect(saved).toBe('---\ntitle: Ear\nsummary: New summary.\ninternal: yes\n---\nText.\n')
  })

  test('a block list keeps its indentation style and only the new item is added', () => {
    const file = '---\ntitle: Ear\ntags:\n- ears\n- face\n---\nText.\n'
    const saved = faithfulSave(file, decap({ title: 'Ear', tags: ['ears', 'face', 'kids'] }, 'Text.'), FIELDS)!
    expect(saved).toBe('---\ntitle: Ear\ntags:\n- ears\n- face\n- kids\n---\nText.\n')
    const indented = '---\ntitle: Ear\ntags:\n  - ears\n---\nText.\n'
    expect(faithfulSave(indented, decap({ title: 'Ear', tags: ['ears', 'kids'] }, 'Text.'), FIELDS)).toBe('---\ntitle: Ear\ntags:\n  - ears\n  - kids\n---\nText.\n')
  })

  test('Windows line breaks are kept, in the changed lines too', () => {
    const file = '---\r\ntitle: Ear\r\nsummary: Old.\r\n---\r\n\r\nText.\r\n'
    expect(faithfulSave(file, decap({ title: 'Ear', summary: 'Old.' }, 'Text.'), FIELDS)).toBeUndefined()
    expect(faithfulSave(file, decap({ title: 'Ear', summary: 'New.' }, 'Text.'), FIELDS)).toBe('---\r\ntitle: Ear\r\nsummary: New.\r\n---\r\n\r\nText.\r\n')
    expect(faithfulSave(file, decap({ title: 'Ear', summary: 'Old.' }, 'Text, edited.\n\nMore.'), FIELDS)).toBe('---\r\ntitle: Ear\r\nsummary: Old.\r\n---\r\n\r\nText, edited.\r\n\r\nMore.\r\n')
  })

  test('the text is kept as written unless edited; the blank line after the front matter stays', () => {
    const file = '---\ntitle: Ear\n---\n\n## Heading\n\n* a star list\n'
    expect(faithfulSave(file, decap({ title: 'Ear' }, '## Heading\n\n* a star list'), FIELDS)).toBeUndefined()
    expect(faithfulSave(file, decap({ title: 'Ear' }, '## Heading\n\n- a list, edited'), FIELDS)).toBe('---\ntitle: Ear\n---\n\n## Heading\n\n- a list, edited\n')
  })

  test('a text Decap writes in its own Markdown style keeps every line the editor did not change', () => {
    const file = '---\ntitle: Ear\n---\n\n## Risks\n\n- bleeding;\n- __infection__;\n- a hole in the septum (1\\. rare).\n\nRecovery takes weeks.\n'
    const restyled = '## Risks\n\n* bleeding;\n* **infection**;\n* a hole in the septum (1. rare).\n\nRecovery takes weeks.'
    expect(faithfulSave(file, decap({ title: 'Ear' }, restyled), FIELDS)).toBeUndefined()
    const edited = faithfulSave(file, decap({ title: 'Ear' }, restyled.replace('weeks.', 'two weeks.').replace('* bleeding;', '* bleeding;\n* swelling;')), FIELDS)!
    expect(edited).toBe('---\ntitle: Ear\n---\n\n## Risks\n\n- bleeding;\n* swelling;\n- __infection__;\n- a hole in the septum (1\\. rare).\n\nRecovery takes two weeks.\n')
  })
})

describe('a new page', () => {
  test('its fields in the schema\'s order, each on one line, empty ones left out', () => {
    const long = 'A description well over eighty columns long, so that a YAML writer that folds lines would fold it.'
    const saved = faithfulSave(undefined, decap({ tags: ['eyelids'], title: 'Questions', summary: '', description: long, reviewedBy: 'dr-x' }, 'Bring a list.'), FIELDS)
    expect(saved).toBe(`---\ntitle: Questions\ndescription: ${long}\nreviewedBy: dr-x\ntags:\n  - eyelids\n---\nBring a list.\n`)
  })
})
