/**
 * The only inline scripts of the site, identical on every page so that a Content-Security-Policy
 * can list their hashes. Written as TypeScript in src/client/runtime/inline/ and minified here by
 * esbuild into the exact text every page carries; compiled on first use, once per process, and
 * kept beside the command's bundle, whose version covers their sources: loading esbuild and
 * running it took 60 ms of every build that renders a page.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { packageDir } from '../util/package.ts'

export interface InlineScripts {
  /** Reloads once per minute at most when one of our scripts fails or hangs. */
  chunkGuard: string
  /** Sends a visitor at `/` to their language's home page. */
  rootRedirect: string
}

function compile(name: string): string {
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild')
  const result = buildSync({
    absWorkingDir: packageDir,
    entryPoints: [`src/client/runtime/inline/${name}.ts`],
    bundle: true, format: 'iife', minify: true, target: 'es2017', legalComments: 'none', write: false, logLevel: 'silent',
  })
  return result.outputFiles[0]!.text.trim()
}

let compiled: InlineScripts | undefined
/** Beside the bundle when running from it; none when running from the sources. */
const kept = import.meta.url.endsWith('.js') ? new URL('./inline-scripts.json', import.meta.url) : undefined

export function inlineScripts(): InlineScripts {
  return (compiled ??= readKept() ?? keep({ chunkGuard: compile('chunk-guard'), rootRedirect: compile('root-redirect') }))
}

function readKept(): InlineScripts | undefined {
  try {
    return kept && JSON.parse(readFileSync(kept, 'utf8')) as InlineScripts
  } catch {
    return undefined
  }
}

function keep(scripts: InlineScripts): InlineScripts {
  try {
    if (kept) writeFileSync(kept, JSON.stringify(scripts))
  } catch {
    // A package folder that cannot be written to: compiled again next time.
  }
  return scripts
}

/** Every inline script's text, in page order, for the Content-Security-Policy hashes. */
export function inlineScriptSources(): string[] {
  const { chunkGuard, rootRedirect } = inlineScripts()
  return [chunkGuard, rootRedirect]
}
