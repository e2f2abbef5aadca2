// The CLI as an esbuild bundle of src/ and templates/, in .bundle/<version>/ beside them: starting
// from it takes a fraction of the time that compiling the sources on the fly through tsx does.
// The version is a hash of every source file's path, size and modification time, so a changed
// source makes a new bundle (about 0.3 s) on the next run and `npm ci` stays the only set-up step.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const packageDir = join(import.meta.dirname, '..')
const SOURCES = ['src', 'templates']
const STALE_MS = 24 * 60 * 60 * 1000

/**
 * The URL of the bundled CLI module, made first if the sources changed since the last one;
 * undefined where the package folder is read-only (the caller then runs the sources through tsx).
 */
export async function cliBundle() {
  const home = join(packageDir, '.bundle')
  const dir = join(home, sourcesVersion())
  if (!existsSync(join(dir, 'cli.js'))) {
    try {
      await make(home, dir)
    } catch (error) {
      if (['EACCES', 'EPERM', 'EROFS'].includes(error.code)) return undefined
      if (!error.errors) throw error
      // A source that does not compile: esbuild's messages, as `file:line:column  message`.
      const where = ({ location: l }) => (l ? `${l.file}:${l.line}:${l.column + 1}  ` : '')
      throw new Error(error.errors.map((e) => `clinic-build: ${where(e)}${e.text}`).join('\n'))
    }
  }
  return pathToFileURL(join(dir, 'cli.js')).href
}

function sourcesVersion() {
  // This file too: how the bundle is made is part of what it is. And npm's record of the installed
  // tree, rewritten by every install: the Markdown stack is taken into the bundle, and an update
  // of it must make a new one.
  const installed = statSync(join(packageDir, 'node_modules/.package-lock.json'), { throwIfNoEntry: false })
  const hash = createHash('sha1').update(`${statSync(join(packageDir, 'tsconfig.json')).mtimeMs} ${statSync(import.meta.filename).mtimeMs} ${installed?.size} ${installed?.mtimeMs}`)
  for (const folder of SOURCES) {
    for (const file of readdirSync(join(packageDir, folder), { recursive: true }).map(String).sort()) {
      const stats = statSync(join(packageDir, folder, file))
      if (stats.isFile()) hash.update(`${folder}/${file} ${stats.size} ${stats.mtimeMs}\n`)
    }
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * html-minifier-terser loads terser and clean-css as it starts (110 ms, more than a third of an
 * edited build's), for the `minifyJS` and `minifyCSS` options, which the build leaves off
 * (src/render/minify.ts). The bundle takes the minifier in with those two left out: asked for,
 * they throw. Run from the sources, the minifier loads as published.
 */
const minifierWithoutItsMinifiers = {
  name: 'minifier-without-its-minifiers',
  setup(build) {
    build.onResolve({ filter: /^html-minifier-terser$/ }, () => ({ path: join(packageDir, 'node_modules/html-minifier-terser/src/htmlminifier.js') }))
    build.onResolve({ filter: /^(terser|clean-css)$/ }, (args) => (args.importer.includes('html-minifier-terser') ? { path: args.path, namespace: 'left-out' } : undefined))
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `const leftOut = () => { throw new Error('${args.path} is left out of the bundle: clinic-build does not minify inline JavaScript or CSS') }
        export default leftOut; export const minify = leftOut`,
    }))
  },
}

/**
 * The Markdown stack (unified, remark, rehype, micromark and the mdast, hast and unist utilities)
 * is some 150 small modules: loading them one by one took a build that parses one edited body
 * 80 ms. Taken into the bundle, with what they import, they load as one file. Every other
 * package stays outside, loaded from node_modules as published.
 */
const MARKDOWN_STACK = /^(unified|vfile|remark-[\w-]+|rehype-[\w-]+|micromark[\w-]*|mdast-util-[\w-]+|hast-util-[\w-]+|unist-util-[\w-]+)(\/|$)/
const REACT = /^react(-dom)?(\/|$)/
const markdownStackInside = {
  name: 'markdown-stack-inside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true }
      // What a package taken in imports is taken in too, React aside: one React for the templates and all.
      const inside = MARKDOWN_STACK.test(args.path) || (args.importer.includes('/node_modules/') && !REACT.test(args.path))
      return inside ? undefined : { path: args.path, external: true }
    })
  },
}

/** Bundles into a folder of its own, then renames it into place: CLIs started together never see half a bundle. */
async function make(home, dir) {
  const { build } = await import('esbuild')
  const building = `${dir}.${process.pid}.tmp`
  mkdirSync(home, { recursive: true })
  await build({
    absWorkingDir: packageDir,
    entryPoints: { cli: 'src/cli.ts', 'shard-worker': 'src/render/shard-worker.ts', 'served-worker': 'src/check/served-worker.ts' },
    outdir: building,
    bundle: true,
    splitting: true, // commands import what only they need when they run
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [minifierWithoutItsMinifiers, markdownStackInside],
    // The CommonJS taken in asks for Node's modules with require(), which an ES module has not.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'silent',
  })
  try {
    renameSync(building, dir)
  } catch {
    rmSync(building, { recursive: true, force: true }) // another CLI made the same bundle first
  }
  for (const old of readdirSync(home)) {
    const path = join(home, old)
    if (path !== dir && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true })
  }
}
