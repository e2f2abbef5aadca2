#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: `npm ci` is the only set-up step.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) })
const { main } = await import('../src/cli.ts')
await main(process.argv)
