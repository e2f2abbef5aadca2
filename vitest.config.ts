import { defineConfig } from 'vitest/config'

const BROWSER = 'tests/**/*.browser.test.ts'

export default defineConfig({
  test: {
    globalSetup: ['tests/support/temp-root.ts'],
    // Generous: on a machine whose CPU is shared with others, the suite has run at two thirds of its usual speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      // Two files at a time: a test with no browser mostly keeps one core busy.
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: [BROWSER], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      // Then one at a time: Chromium uses both cores, so two such files took twice as long each,
      // and timings that the tests and the Lighthouse scores depend on moved.
      { extends: true, test: { name: 'browser', include: [BROWSER], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
})
