/**
 * The only inline scripts of the site, identical on every page so that a Content-Security-Policy
 * can list their hashes. Written as TypeScript in src/client/runtime/inline/ and minified here by
 * esbuild into the exact text every page carries; compiled on first use, once per process.
 */
import { buildSync } from 'esbuild'
import { packageDir } from '../util/package.ts'

export interface InlineScripts {
  /** Reloads once per minute at most when one of our scripts fails or hangs. */
  chunkGuard: string
  /** Sends a visitor at `/` to their language's home page. */
  rootRedirect: string
}

function compile(name: string): string {
  const result = buildSync({
    absWorkingDir: packageDir,
    entryPoints: [`src/client/runtime/inline/${name}.ts`],
    bundle: true, format: 'iife', minify: true, target: 'es2017', legalComments: 'none', write: false, logLevel: 'silent',
  })
  return result.outputFiles[0]!.text.trim()
}

let compiled: InlineScripts | undefined

export function inlineScripts(): InlineScripts {
  return (compiled ??= { chunkGuard: compile('chunk-guard'), rootRedirect: compile('root-redirect') })
}

/** Every inline script's text, in page order, for the Content-Security-Policy hashes. */
export function inlineScriptSources(): string[] {
  const { chunkGuard, rootRedirect } = inlineScripts()
  return [chunkGuard, rootRedirect]
}
