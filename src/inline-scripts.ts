/**
 * The only inline scripts of the site, identical on every page so that a Content-Security-Policy
 * can list their hashes. Written as TypeScript in src/client/runtime/inline/ and minified here by
 * esbuild, once per process, into the exact text every page carries.
 */
import { buildSync } from 'esbuild'
import { packageDir } from './config.ts'

function compile(name: string): string {
  const result = buildSync({
    absWorkingDir: packageDir,
    entryPoints: [`src/client/runtime/inline/${name}.ts`],
    bundle: true, format: 'iife', minify: true, target: 'es2017', legalComments: 'none', write: false, logLevel: 'silent',
  })
  return result.outputFiles[0]!.text.trim()
}

export const inlineScripts = {
  /** Reloads once per minute at most when one of our scripts fails or hangs. */
  chunkGuard: compile('chunk-guard'),
  /** Sends a visitor at `/` to their language's home page. */
  rootRedirect: compile('root-redirect'),
}

/** Every inline script's text, in page order, for the Content-Security-Policy hashes. */
export const inlineScriptSources: readonly string[] = [inlineScripts.chunkGuard, inlineScripts.rootRedirect]
