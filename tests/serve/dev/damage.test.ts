/**
 * `clinic-build dev` as a real process, given a random sequence of saves to a page and a locale
 * file: damaged ones (tests/support/damage.ts) and good ones. No save stops the server or shows a
 * bug (an internal error, a stack trace); after each, it still answers on 127.0.0.1; after each
 * good save it serves the page's new text.
 *
 * A failing sequence prints its seed and path; replay it with
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run tests/serve/dev/damage.test.ts
 */
import fc from 'fast-check'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { damaged, damages, runOptions, type Damage } from '../../support/damage.ts'
import { copySite } from '../../support/helpers.ts'
import { devProcess } from '../../support/dev-process.ts'
import { get } from '../../support/http.ts'

const PAGE = 'content/en/blog/how-to-prepare-for-a-rhinoplasty.md'
const PAGE_URL = '/blog/how-to-prepare-for-a-rhinoplasty/'
const LOCALE = 'locales/en-SG.yaml'

const site = copySite()
const dev = devProcess(site)

afterAll(async () => {
  await dev.stop()
  rmSync(site, { recursive: true, force: true })
})

type Save = { file: string; damage: Damage[] } | { good: number }

const save: fc.Arbitrary<Save> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ file: fc.constantFrom(PAGE, LOCALE), damage: damages }) },
  { weight: 1, arbitrary: fc.record({ good: fc.nat({ max: 1_000_000 }) }) },
)

test('no save stops dev, and each good save is served', async () => {
  const url = await dev.start()
  const original = new Map([PAGE, LOCALE].map((file) => [file, readFileSync(join(site, file))]))
  const status = async () => JSON.parse((await get(`${url}/__clinic/status`)).body.toString('utf8')) as { building: boolean; ok: boolean; builds: number }
  const answers = async () => (await get(`${url}/`)).status
  const pageText = async () => (await get(`${url}${PAGE_URL}`)).body.toString('utf8')

  /** Writes the files that differ from what is on disk, and waits until the rebuild they started is done. */
  async function write(files: Map<string, Buffer>): Promise<void> {
    const changed = [...files].filter(([file, bytes]) => !readFileSync(join(site, file)).equals(bytes))
    if (changed.length === 0) return
    const before = (await status()).builds
    for (const [file, bytes] of changed) writeFileSync(join(site, file), bytes)
    await dev.until('a rebuild after the save', async () => { const s = await status(); return s.builds > before && !s.building }, 20_000)
  }

  // Every sequence ends with a good save.
  const sequence = fc.tuple(fc.array(save, { minLength: 20, maxLength: 30 }), fc.nat({ max: 1_000_000 })).map(([saves, last]) => [...saves, { good: last }])
  await fc.assert(fc.asyncProperty(sequence, async (saves) => {
    for (const [n, step] of saves.entries()) {
      if ('good' in step) {
        const sentence = `A good save, number ${n} (${step.good}).`
        await write(new Map([[LOCALE, original.get(LOCALE)!], [PAGE, Buffer.concat([original.get(PAGE)!, Buffer.from(`\n${sentence}\n`)])]]))
        // The two files may be seen one rebuild apart.
        await dev.until('the good save served', async () => (await status()).ok && (await pageText()).includes(sentence), 10_000)
      } else {
        await write(new Map([[step.file, damaged(original.get(step.file)!, step.damage)]]))
      }
      expect(dev.exitCode(), dev.output()).toBeNull()
      expect(await answers(), dev.output()).toBe(200)
    }
    expect(dev.output()).not.toMatch(/internal ?error|\n\s+at /i)
  }), runOptions(1, { endOnFailure: true }))
}, 180_000)
