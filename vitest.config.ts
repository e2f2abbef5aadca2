import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/temp-root.ts'],
    // Generous: on a machine whose CPU is shared with others, the suite has run at two thirds of its usual speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
