import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
