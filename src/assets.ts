/** The stylesheet and the browser script, bundled by esbuild with content-hashed names. */
import { build } from 'esbuild'
import { relative } from 'node:path'
import type { Assets, OutputFile } from './types.ts'

/** Bundles templates/styles/site.css and src/client/main.ts into assets/<name>.<hash>.<ext>. */
export async function bundleAssets(packageDir: string): Promise<{ assets: Assets; files: OutputFile[] }> {
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: { site: 'templates/styles/site.css', main: 'src/client/main.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name].[hash]',
    target: ['es2020', 'chrome100', 'safari15', 'firefox100'],
    outdir: 'assets',
    entryNames: '[name].[hash]',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  })
  const files = result.outputFiles.map((f) => ({ path: relative(packageDir, f.path).split('\\').join('/'), contents: f.contents }))
  const url = (ext: string) => `/${files.find((f) => !f.path.startsWith('assets/chunks/') && f.path.endsWith(ext))!.path}`
  return { assets: { stylesheet: url('.css'), scripts: [url('.js')] }, files }
}
