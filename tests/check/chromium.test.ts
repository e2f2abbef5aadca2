/** Which browser `check` drives, and what its report says of it (src/check/chromium.ts). */
import { expect, test } from 'vitest'
import { chooseBrowser } from '../../src/check/chromium.ts'

const SHELL = '/usr/bin/chromium-headless-shell'
const CHROMIUM = '/usr/bin/chromium'
const installed = (...paths: string[]) => (path: string) => paths.includes(path)

test('CHROMIUM_PATH first, whatever is installed', () => {
  expect(chooseBrowser('/opt/chrome/chrome', installed(SHELL, CHROMIUM))).toEqual({ path: '/opt/chrome/chrome' })
  expect(chooseBrowser(CHROMIUM, installed(SHELL, CHROMIUM))).toEqual({ path: CHROMIUM })
})

test("then Debian's headless shell of Chromium, when it is installed", () => {
  expect(chooseBrowser(undefined, installed(SHELL, CHROMIUM))).toEqual({ path: SHELL })
  expect(chooseBrowser(undefined, installed(SHELL))).toEqual({ path: SHELL })
})

test('then Chromium itself, with the command that installs the quicker shell', () => {
  for (const present of [installed(CHROMIUM), installed()]) {
    const { path, hint } = chooseBrowser(undefined, present)
    expect(path).toBe(CHROMIUM)
    expect(hint).toContain('apt-get install chromium-headless-shell')
  }
})
