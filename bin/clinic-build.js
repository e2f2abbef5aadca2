#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: `npm ci` is the only set-up step.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'

// React's development builds validate every element: several times slower, and only for tests.
process.env.NODE_ENV ??= 'production'

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) })
const { main } = await import('../src/cli.ts')
await main(process.argv)
