#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import module from 'node:module'
import { fileURLToPath } from 'node:url'
import { cliBundle } from './bundle.js'

// From Node 22.1 on, the code compiled for every module loaded is kept on disk for the next run
// (Node 20 has no such cache). Node's own folder for it, in the system's temporary folder.
module.enableCompileCache?.()

// React's development builds validate every element: several times slower, and only for tests.
process.env.NODE_ENV ??= 'production'

// `--version` alone is answered here: finding the bundle, loading it and its command parser take
// longer than Node's own start.
if (process.argv.length === 3 && ['--version', '-v'].includes(process.argv[2])) {
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version)
  process.exit(0)
}

let bundle
try {
  bundle = await cliBundle()
} catch (error) {
  console.error(error.message)
  process.exit(1)
}
if (bundle === undefined) {
  const { register } = await import('tsx/esm/api')
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) })
}
const { main } = await import(bundle ?? '../src/cli.ts')
await main(process.argv)
