/**
 * npm run icons: draws the PNG icons in static/ from the clinic's mark (static/favicon.svg):
 * favicon-32.png for browsers without SVG favicons, and apple-touch-icon.png (180 px, on the
 * site's ivory, with the margin home screens expect). Run it after changing the mark.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { projectRoot } from '../tests/support/helpers.ts'

const mark = readFileSync(join(projectRoot, 'static/favicon.svg'))
const IVORY = '#fbf8f3'

await sharp(mark, { density: 300 }).resize(32, 32).png().toFile(join(projectRoot, 'static/favicon-32.png'))
const inner = await sharp(mark, { density: 600 }).resize(132, 132).png().toBuffer()
await sharp({ create: { width: 180, height: 180, channels: 4, background: IVORY } })
  .composite([{ input: inner, gravity: 'center' }]).png().toFile(join(projectRoot, 'static/apple-touch-icon.png'))
console.log('static/favicon-32.png, static/apple-touch-icon.png')
