import { defineConfig } from 'vitest/config'

const BROWSER = 'tests/**/*.browser.test.ts'

export default defineConfig({
  test: {
    globalSetup: ['tests/support/temp-root.ts'],
    // Generous: on a machine whose CPU is shared with others, the suite has run at two thirds of its usual speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // What a browser or a server does after an action is waited for with expect.poll: its default
    // second was too short on a loaded machine (a worker's end reached Playwright later than that).
    expect: { poll: { timeout: 15_000 } },
    projects: [
      // Two files at a time: each then takes nearly twice as long, since most are bound by CPU, but
      // the suites with no browser finished sooner (the whole run: 1,536 s against 1,629 s).
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: [BROWSER], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      // Then one at a time: two such files took twice as long each, so nothing was gained, and a
      // runtime test that counts reloads within 60 s failed under the load.
      { extends: true, test: { name: 'browser', include: [BROWSER], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
})
