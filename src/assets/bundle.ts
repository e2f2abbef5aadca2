/** The stylesheet and the browser script, bundled by esbuild with content-hashed names. */
import type { Plugin } from 'esbuild'
import { readFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { scriptGraph } from './script-graph.ts'
import type { Assets, OutputFile } from '../types.ts'

/**
 * Bundles templates/styles/site.css and src/client/main.ts into assets/<name>.<hash>.<ext>.
 * `generatedCss` (rules the build derives from content, such as image placeholders) is appended
 * to the stylesheet, so pages need no inline styles.
 */
export async function bundleAssets(packageDir: string, generatedCss = ''): Promise<{ assets: Assets; files: OutputFile[] }> {
  const { build } = await import('esbuild')
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
    plugins: [appendToStylesheet(generatedCss)],
    metafile: true,
  })
  // esbuild's hash of each file's contents is its version: the writer and the summary need not hash it again.
  const files = result.outputFiles.map((f) => ({ path: relative(packageDir, f.path).split('\\').join('/'), contents: f.contents, version: f.hash }))
  const url = (ext: string) => `/${files.find((f) => !f.path.startsWith('assets/chunks/') && f.path.endsWith(ext))!.path}`
  const graph = scriptGraph(result.metafile, 'src/client/main.ts', 'src/client/islands/')
  const urls = (paths: string[]) => paths.map((p) => `/${p}`)
  const islands = Object.fromEntries(Object.entries(graph.islands).map(([name, paths]) => [name, urls(paths)]))
  return { assets: { stylesheet: url('.css'), scripts: [url('.js')], runtime: urls(graph.runtime), islands }, files }
}

function appendToStylesheet(css: string): Plugin {
  return {
    name: 'append-to-stylesheet',
    setup(build) {
      build.onLoad({ filter: /[\\/]templates[\\/]styles[\\/]site\.css$/ }, async (args) => ({
        contents: `${await readFile(args.path, 'utf8')}\n${css}`, loader: 'css', resolveDir: dirname(args.path),
      }))
    },
  }
}
