// Starts the build worker through tsx, as bin/clinic-build.js starts the CLI: the worker thread
// runs the TypeScript sources directly.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'

register({ tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) })
await import('./build-worker.ts')
