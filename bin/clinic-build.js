#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// `--version` alone is answered before anything else loads: the compile cache, finding the
// bundle, loading it and its command parser each take time that Node's own start does not.
if (process.argv.length === 3 && ['--version', '-v'].includes(process.argv[2])) {
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version)
  process.exit(0)
}

// From Node 22.1 on, the code compiled for every module loaded is kept on disk for the next run
// (Node 20 has no such cache). Node's own folder for it, in the system's temporary folder.
const { default: module } = await import('node:module')
module.enableCompileCache?.()

// React's development builds validate every element: several times slower, and only for tests.
process.env.NODE_ENV ??= 'production'

const { cliBundle } = await import('./bundle.js')
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
