/**
 * The content editor's JavaScript (src/editor/main.tsx with Decap CMS, React, the templates and the
 * advertising rules), bundled by esbuild. It depends on clinic-build's own code and libraries,
 * never on a site's content, so it is made once and kept in .bundle/admin/<hash of its inputs>/
 * beside the command's own bundle: every build of every site after the first reads it from there.
 * Bundling takes about 1 s; reading it, a few milliseconds.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import type { Plugin } from 'esbuild'
import { INSTALLED_TREE, listFiles } from '../content/read.ts'
import type { OutputFile } from '../types.ts'
import { madeWhenRead } from '../util/memo.ts'
import { ADMIN_DIR } from './config.ts'

/**
 * The bundle's files, relative to the output folder (example: [{ path: 'admin/editor.Q3X5.js',
 * contents }]); the addresses of the editor's script, of the preview's worker that reads long
 * bodies (src/editor/body-reader.ts) and of the stylesheets.
 */
export interface EditorBundle { files: OutputFile[]; script: string; bodyReader: string; stylesheets: string[] }

const SHIMS = 'src/editor/shims'
/** Libraries whose exact versions are inputs of the bundle. */
const LIBRARIES = ['decap-cms-core', 'decap-cms-widget-markdown', 'react', 'react-dom', 'esbuild']
const KEPT_BUNDLES = 3

export async function editorBundle(packageDir: string): Promise<EditorBundle> {
  const key = await inputsHash(packageDir)
  const dir = join(packageDir, '.bundle', 'admin', key)
  const kept = await readKept(dir)
  if (kept) return kept
  const made = await bundle(packageDir)
  keep(dir, made)
  return made
}

/**
 * A hash of the path, size and modification time of every file of src/ and templates/ (as the
 * command's own bundle is versioned, bin/bundle.js: reading them all would cost more than the
 * bundle itself takes to read), of the versions of the main libraries bundled, and of npm's
 * record of the installed tree.
 */
async function inputsHash(packageDir: string): Promise<string> {
  const hash = createHash('sha256')
  for (const folder of ['src', 'templates']) {
    const files = (await listFiles(join(packageDir, folder))).sort()
    const stats = await Promise.all(files.map((f) => stat(join(packageDir, folder, f))))
    files.forEach((f, i) => hash.update(`${folder}/${f} ${stats[i]!.size} ${stats[i]!.mtimeMs}\n`))
  }
  for (const name of LIBRARIES) hash.update(`${name}@${versionOf(packageDir, name)}\n`)
  // Every other library bundled (Decap's widgets, their dependencies): npm rewrites this record at each install.
  const installed = await stat(join(packageDir, INSTALLED_TREE)).catch(() => undefined)
  hash.update(`${INSTALLED_TREE} ${installed?.size} ${installed?.mtimeMs}\n`)
  return hash.digest('hex').slice(0, 20)
}

const versionOf = (packageDir: string, name: string) => (JSON.parse(readFileSync(join(packageDir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version

async function readKept(dir: string): Promise<EditorBundle | undefined> {
  try {
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as Omit<EditorBundle, 'files'> & { paths: string[] }
    // Named by the content hash in the file name: the write stage need not hash 7 MB to know it.
    // Read when first asked for: a build whose output already holds the bundle never reads it.
    const files = await Promise.all(index.paths.map(async (path) => {
      const file = join(dir, path)
      await stat(file) // a kept bundle missing a file is made again
      return madeWhenRead({ path, version: path, source: file }, () => readBundleFile(file))
    }))
    return { files, script: index.script, bodyReader: index.bodyReader, stylesheets: index.stylesheets }
  } catch {
    return undefined
  }
}

function readBundleFile(file: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file))
  } catch (error) {
    // Only a long-running dev server, after builds of several newer versions removed its bundle.
    throw new Error(`The content editor's bundle ${file} was removed while in use (${(error as NodeJS.ErrnoException).code}): run the command again.`)
  }
}

/** Written into a folder of its own, then renamed into place: builds running together never read half of it. */
function keep(dir: string, made: EditorBundle): void {
  const temp = `${dir}.${process.pid}.tmp`
  try {
    for (const file of made.files) {
      mkdirSync(join(temp, ADMIN_DIR), { recursive: true })
      writeFileSync(join(temp, file.path), file.contents)
    }
    writeFileSync(join(temp, 'index.json'), JSON.stringify({ paths: made.files.map((f) => f.path), script: made.script, bodyReader: made.bodyReader, stylesheets: made.stylesheets }))
    if (!existsSync(dir)) renameSync(temp, dir)
    removeOldBundles(dirname(dir))
  } catch {
    // A read-only package folder: the next build bundles again.
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

/** A bundle is 7 MB and each change to the sources makes one: the newest few are kept (another checkout's build may still use one). */
function removeOldBundles(home: string): void {
  const bundles = readdirSync(home).filter((name) => !name.endsWith('.tmp')).map((name) => ({ path: join(home, name), time: statSync(join(home, name)).mtimeMs }))
  for (const old of bundles.sort((a, b) => b.time - a.time).slice(KEPT_BUNDLES)) rmSync(old.path, { recursive: true, force: true })
}

async function bundle(packageDir: string): Promise<EditorBundle> {
  const { build } = await import('esbuild')
  const rules = readFileSync(join(packageDir, 'src/compliance/rules.yaml'), 'utf8')
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: { editor: 'src/editor/main.tsx', 'body-reader': 'src/editor/body-reader.ts' },
    bundle: true,
    // The preview is a chunk of its own, loaded when an entry is opened (src/editor/main.tsx).
    splitting: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'safari15', 'firefox100'],
    outdir: ADMIN_DIR,
    entryNames: '[name].[hash]',
    chunkNames: '[name].[hash]',
    assetNames: '[name].[hash]',
    loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'file', '.png': 'file', '.gif': 'file' },
    jsx: 'automatic',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    define: {
      'process.env.NODE_ENV': '"production"',
      global: 'globalThis',
      CLINIC_COMPLIANCE_RULES: JSON.stringify(rules),
    },
    plugins: [nodeShims(packageDir), configCheckedByTests(), withoutEval(), workerSafe(packageDir)],
  })
  const files = result.outputFiles.map((f) => ({ path: relative(packageDir, f.path).split('\\').join('/'), contents: f.contents }))
  const entry = (name: string) => `/${files.find((f) => f.path.startsWith(`${ADMIN_DIR}/${name}.`) && f.path.endsWith('.js'))!.path}`
  return {
    files,
    script: entry('editor'),
    bodyReader: entry('body-reader'),
    stylesheets: files.filter((f) => f.path.endsWith('.css')).map((f) => `/${f.path}`),
  }
}

/**
 * Decap checks its configuration when it starts with AJV, which compiles the check into code at
 * run time: that needs the policy to allow 'unsafe-eval' on a page that can write to the site's
 * repository. The configuration is made by the build, the same for every editor, so the check runs
 * in the tests instead (tests/admin/editor.browser.test.ts turns it on with CLINIC_CHECK_CONFIG)
 * and the editor's policy stays without 'unsafe-eval'.
 */
function configCheckedByTests(): Plugin {
  const start = 'export function validateConfig(config) {'
  return {
    name: 'config-checked-by-tests',
    setup(build) {
      build.onLoad({ filter: /[\\/]decap-cms-core[\\/]dist[\\/]esm[\\/]constants[\\/]configSchema\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8')
        if (!text.includes(start)) throw new Error(`${args.path} no longer defines validateConfig: see src/admin/bundle.ts`)
        return { contents: text.replace(start, `${start}\n  if (!globalThis.CLINIC_CHECK_CONFIG) return;`), loader: 'js' }
      })
    },
  }
}

/**
 * Two libraries try eval when they load, and catch the error the editor's policy raises; the
 * browser still reports each try as a violation of the policy (with zod's, src/editor/jitless.ts,
 * 6 as the editor started):
 * - ts-invariant, of the GitHub backend's GraphQL client, makes a global `process` with
 *   Function() so that process.env.NODE_ENV can be read: the bundle defines that value instead;
 * - @iarna/toml, of Decap's TOML format (the site's files are YAML), looks for Node's
 *   util.inspect through eval, for printing its values in Node.
 * The statements are cut out here; a version of a library without them fails the bundle, so
 * that this is looked at again.
 */
const EVAL_SITES = [
  { file: /[\\/]ts-invariant[\\/]lib[\\/]invariant\.esm\.js$/, statement: 'Function("stub", "process = stub")(processStub);', instead: '' },
  { file: /[\\/]@iarna[\\/]toml[\\/]lib[\\/]toml-parser\.js$/, statement: 'eval("require(\'util\').inspect")', instead: '{}' },
]

function withoutEval(): Plugin {
  return {
    name: 'without-eval',
    setup(build) {
      for (const site of EVAL_SITES) {
        build.onLoad({ filter: site.file }, async (args) => {
          const text = await readFile(args.path, 'utf8')
          if (!text.includes(site.statement)) throw new Error(`${args.path} no longer has ${site.statement}: see src/admin/bundle.ts`)
          return { contents: text.replace(site.statement, site.instead), loader: 'js' }
        })
      }
    },
  }
}

/**
 * The preview's worker (src/editor/body-reader.ts) shares the Markdown stack with the preview, and
 * a worker has no document: micromark's decoder of character references has a browser build that
 * decodes through a DOM element made when it loads, so the build for other places (a table of
 * the references) is taken instead, in the worker and in the preview alike.
 */
function workerSafe(packageDir: string): Plugin {
  const require = createRequire(join(packageDir, 'package.json'))
  return {
    name: 'worker-safe',
    setup(build) {
      build.onResolve({ filter: /^decode-named-character-reference$/ }, (args) => ({ path: require.resolve(args.path) }))
    },
  }
}

/**
 * The build's own code runs in the editor (parsing, templates, the advertising rules); the few
 * Node modules it imports are answered by src/editor/shims/, and the check cache by a stand-in.
 */
function nodeShims(packageDir: string): Plugin {
  const shim = (file: string) => ({ path: join(packageDir, SHIMS, file) })
  return {
    name: 'node-shims',
    setup(build) {
      build.onResolve({ filter: /^node:(fs|path|url|module|crypto)$/ }, (args) => shim(`${args.path.slice('node:'.length)}.cjs`))
      build.onResolve({ filter: /^esbuild$/ }, () => shim('esbuild.cjs'))
      build.onResolve({ filter: /^(node:[\w/]+|sharp)$/ }, () => shim('unavailable.cjs'))
      build.onResolve({ filter: /^\.\/cache\.ts$/ }, (args) => (/[\\/]src[\\/]check$/.test(args.resolveDir) ? shim('check-cache.ts') : undefined))
    },
  }
}
