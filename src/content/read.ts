/** The build's only input stage: reads the site folder and the templates into plain data. */
import type { Stats } from 'node:fs'
import { existsSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { IMAGE_FILE } from '../assets/picture.ts'
import { problem } from '../errors.ts'
import type { Diagnostic, Project, SourceFile } from '../types.ts'
import { walkFolder } from '../util/walk-folder.ts'
import { decodeSource } from './text.ts'

/**
 * Files under `dir` (recursively), relative to it, with forward slashes; [] when it is absent.
 * Listed synchronously: an output folder of a thousand pages is a thousand folders, which
 * fs/promises walks six times slower.
 */
export async function listFiles(dir: string): Promise<string[]> {
  return walk(dir).files
}

/**
 * What `dir` holds: files (a link to a file counts as one), and the links it does not follow: to
 * a folder (which could lead in a circle) or to nothing (missing, or a circle of links).
 */
function walk(dir: string): { files: string[]; links: { path: string; to: 'folder' | 'nothing' }[] } {
  const files: string[] = []
  const links: { path: string; to: 'folder' | 'nothing' }[] = []
  try {
    walkFolder(dir, (path, entry) => {
      if (entry.isDirectory()) return true
      if (entry.isFile()) files.push(path)
      else if (entry.isSymbolicLink()) {
        const target = targetOf(join(dir, path))
        if (target?.isFile()) files.push(path)
        else links.push({ path, to: target?.isDirectory() ? 'folder' : 'nothing' })
      }
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(dir)) return { files: [], links: [] }
    throw error
  }
  return { files: files.sort(), links }
}

/** What a link leads to; undefined when nothing (missing, or a circle of links). */
function targetOf(link: string): Stats | undefined {
  try { return statSync(link) } catch { return undefined }
}

/** One source file as text (src/content/text.ts), or with the problem that kept it from being read. */
export function readSource(base: string, file: string): SourceFile {
  const full = join(base, file)
  let bytes: Buffer
  try {
    bytes = readFileSync(full)
  } catch (error) {
    return { path: file, text: '', problem: unreadable(file, full, error as NodeJS.ErrnoException) }
  }
  const decoded = decodeSource(bytes, file)
  return 'text' in decoded ? { path: file, text: decoded.text } : { path: file, text: '', problem: decoded.problem }
}

function unreadable(file: string, full: string, error: NodeJS.ErrnoException): Diagnostic {
  const target = (() => { try { return readlinkSync(full) } catch { return undefined } })()
  if (error.code === 'ENOENT' && target === undefined) return problem('MissingFile', [file === SITE_FILE ? 'The site configuration content/site.yaml' : `The file ${file}`], { file })
  const why = error.code === 'ELOOP' ? `it is a link (to ${target}) in a circle of links`
    : error.code === 'ENOENT' ? `it is a link to ${target}, which does not exist`
    : error.code === 'EISDIR' ? 'it is a folder'
    : error.code === 'EACCES' || error.code === 'EPERM' ? 'permission denied'
    : error.message
  return problem('Unreadable', [why], { file })
}

const SITE_FILE = 'content/site.yaml'

/**
 * Read one after the other, synchronously: a thousand small files take a tenth of the time that
 * fs/promises needs, whose every file is several round trips to the thread pool.
 */
async function readAll(base: string, paths: string[]): Promise<SourceFile[]> {
  return paths.map((file) => readSource(base, file))
}

/**
 * Reads content/ (Markdown and site.yaml, and the listing of its images), locales/ and the static/
 * listing of the site at `root`, and the template sources of the package at `packageDir`.
 */
export async function readProject(root: string, packageDir: string): Promise<Project> {
  const [contentFolder, localesFolder] = [walk(join(root, 'content')), walk(join(root, 'locales'))]
  const [content, locales, staticFiles, templates] = await Promise.all([
    contentFolder.files,
    localesFolder.files,
    listFiles(join(root, 'static')),
    listFiles(join(packageDir, 'templates')),
  ])
  // A link to nothing named like a page or a locale file is read, so that it is reported as unreadable.
  const broken = (folder: typeof contentFolder, wanted: (f: string) => boolean) =>
    folder.links.filter((l) => l.to === 'nothing' && wanted(l.path)).map((l) => l.path)
  const linkedFolders = [...contentFolder.links.map((l) => ({ ...l, path: `content/${l.path}` })), ...localesFolder.links.map((l) => ({ ...l, path: `locales/${l.path}` }))]
    .filter((l) => l.to === 'folder').map((l) => problem('LinkedFolder', [], { file: l.path }, 'warning'))
  const contentImages = content.filter(isImage)
  const [markdown, localeFiles, templateFiles, styleFiles, staticVersions, contentImageVersions] = await Promise.all([
    readAll(root, [...content.filter(isMarkdown), ...broken(contentFolder, isMarkdown)].sort().map((f) => `content/${f}`)),
    readAll(root, [...locales.filter(isYaml), ...broken(localesFolder, isYaml)].sort().map((f) => `locales/${f}`)),
    readAll(packageDir, templates.filter(isTemplate).map((f) => `templates/${f}`)),
    readAll(packageDir, templates.filter(isStyle).map((f) => `templates/${f}`)),
    versionsOf(join(root, 'static'), staticFiles),
    versionsOf(join(root, 'content'), contentImages),
  ])
  return {
    root, siteFile: readSource(root, SITE_FILE), content: markdown, localeFiles,
    staticFiles, staticVersions, contentImages, contentImageVersions, templateFiles, styleFiles, problems: linkedFolders,
  }
}

const isMarkdown = (f: string) => f.endsWith('.md')
const isImage = (f: string) => IMAGE_FILE.test(f)
const isYaml = (f: string) => /\.ya?ml$/.test(f)
/** Template code: the components (.tsx) and their registry (index.ts). */
const isTemplate = (f: string) => /\.tsx?$/.test(f) && !f.startsWith('styles/')
const isStyle = (f: string) => f.startsWith('styles/') && f.endsWith('.css')

/** Size and modification time of each file: enough to tell that a binary file changed. */
async function versionsOf(dir: string, files: string[]): Promise<Record<string, string>> {
  const stats = await Promise.all(files.map((f) => stat(join(dir, f)).then((s) => `${s.size}-${s.mtimeMs}`, () => '')))
  return Object.fromEntries(files.map((f, i) => [f, stats[i]!]))
}

/**
 * The project after the given files changed (paths relative to the site root, or to the package
 * for templates/): only those are read again, so a save in a large site costs one file read.
 * Anything else (a folder, or a file under templates/ that is neither a template nor a stylesheet)
 * reads it all.
 */
export async function rereadProject(previous: Project, changed: string[], packageDir: string): Promise<Project> {
  const next: Project = {
    ...previous, content: [...previous.content], localeFiles: [...previous.localeFiles], staticFiles: [...previous.staticFiles], staticVersions: { ...previous.staticVersions },
    templateFiles: [...previous.templateFiles], contentImageVersions: { ...previous.contentImageVersions }, styleFiles: [...previous.styleFiles],
  }
  for (const path of new Set(changed)) {
    const [folder = '', ...rest] = path.split('/')
    const inner = rest.join('/')
    const base = folder === 'templates' ? packageDir : previous.root
    const stats = await stat(join(base, path)).catch(() => undefined)
    if (stats?.isDirectory() || (stats === undefined && !isKnown(previous, path))) return readProject(previous.root, packageDir)
    const source = () => readSource(base, path)
    if (path === SITE_FILE) next.siteFile = source()
    else if (folder === 'content' && isMarkdown(inner)) next.content = upsert(next.content, path, stats && source())
    else if (folder === 'locales' && isYaml(inner)) next.localeFiles = upsert(next.localeFiles, path, stats && source())
    else if (folder === 'templates' && isStyle(inner)) next.styleFiles = upsert(next.styleFiles, path, stats && source())
    else if (folder === 'templates' && isTemplate(inner)) next.templateFiles = upsert(next.templateFiles, path, stats && source())
    else if (folder === 'content' && isImage(inner)) next.contentImages = relist(next.contentImages, next.contentImageVersions, inner, stats)
    else if (folder === 'static') next.staticFiles = relist(next.staticFiles, next.staticVersions, inner, stats)
    else if (folder === 'templates') return readProject(previous.root, packageDir)
  }
  return next
}

function isKnown(project: Project, path: string): boolean {
  const files = [project.siteFile, ...project.content, ...project.localeFiles, ...project.styleFiles, ...project.templateFiles]
  return files.some((f) => f.path === path) || project.staticFiles.some((f) => `static/${f}` === path)
    || project.contentImages.some((f) => `content/${f}` === path)
}

/** `files` with `file` added (in order) or, without `stats`, removed; its entry in `versions` (the new project's copy) set to match. */
function relist(files: string[], versions: Record<string, string>, file: string, stats: Stats | undefined): string[] {
  const others = files.filter((f) => f !== file)
  delete versions[file]
  if (!stats) return others
  versions[file] = `${stats.size}-${stats.mtimeMs}`
  return [...others, file].sort()
}

/** `files` with the file at `path` replaced, added (in order) or, when `file` is undefined, removed. */
function upsert(files: SourceFile[], path: string, file: SourceFile | undefined): SourceFile[] {
  const others = files.filter((f) => f.path !== path)
  return file === undefined ? others : [...others, file].sort((a, b) => (a.path < b.path ? -1 : 1))
}

/** npm's record of the packages it installed, rewritten by every install. */
export const INSTALLED_TREE = 'node_modules/.package-lock.json'

/**
 * The generator's own code, whose changes must not be answered from the build cache: its sources
 * and styles, and the exact versions of the libraries installed beside it (npm's record of the
 * tree it installed, read as empty where there is none), since the kept results of sharp,
 * esbuild, the Markdown stack and React are theirs as much as the code's.
 */
export async function readCode(packageDir: string): Promise<SourceFile[]> {
  const paths = ['package.json', INSTALLED_TREE, ...(await listFiles(join(packageDir, 'src'))).map((p) => `src/${p}`),
    ...(await listFiles(join(packageDir, 'templates/styles'))).map((p) => `templates/styles/${p}`)]
  return readAll(packageDir, paths)
}
