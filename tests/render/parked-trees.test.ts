/**
 * Parsed trees waiting for their pages (src/render/parked-trees.ts): past the bytes a renderer keeps
 * in memory they go to a scratch file that no folder shows, and come back as they went.
 */
import { closeSync, fstatSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { expect, test } from 'vitest'
import { openScratch, parkedTrees } from '../../src/render/parked-trees.ts'

const scratchFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`clinic-build-trees-${process.pid}-`))

test('trees past the memory allowance are parked on disk and come back byte for byte, once', () => {
  const scratch = openScratch()
  expect(scratch).toBeTypeOf('number')
  // Unlinked at once: a build killed at any point leaves nothing in the temporary folder.
  expect(scratchFiles()).toEqual([])
  try {
    const trees = parkedTrees(scratch, 100)
    const bodies = Array.from({ length: 5 }, (_, i) => Buffer.from(`tree ${i} `.repeat(10 + i)))
    bodies.forEach((bytes, i) => trees.park(`doc-${i}`, bytes))
    // The first fits the allowance; the other four went to the file.
    expect(fstatSync(scratch!).size).toBe(bodies.slice(1).reduce((sum, b) => sum + b.length, 0))
    for (const i of [3, 0, 4, 1, 2]) expect(trees.take(`doc-${i}`)).toEqual(bodies[i])
    expect(trees.take('doc-3')).toBeUndefined()
    expect(trees.take('doc-0')).toBeUndefined()
  } finally {
    closeSync(scratch!)
  }
})

test('a body parsed again replaces its tree; without a scratch file every tree stays in memory', () => {
  const trees = parkedTrees(undefined, 0)
  trees.park('doc', Buffer.from('first'))
  trees.park('doc', Buffer.from('second'))
  trees.park('other', Buffer.from('third'))
  expect(trees.take('doc')?.toString()).toBe('second')
  expect(trees.take('other')?.toString()).toBe('third')
  expect(trees.take('doc')).toBeUndefined()
})
