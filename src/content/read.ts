/** The build's only input stage: reads the site folder and the templates into plain data. */
import type { Stats } from 'node:fs'
import { readdirSync, readFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { IMAGE_FILE } from '../assets/picture.ts'
import type { Project, SourceFile } from '../types.ts'

/**
 * Files under `dir` (recursively), relative to it, with forward slashes; [] when it is absent.
 * Listed synchronously: an output folder of a thousand pages is a thousand folders, which
 * fs/promises walks six times slower.
 */
export async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    return entries.filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/**
 * Read one after the other, synchronously: a thousand small files take a tenth of the time that
 * fs/promises needs, whose every file is several round trips to the thread pool.
 */
async function readAll(base: string, paths: string[]): Promise<SourceFile[]> {
  return paths.map((path) => ({ path, text: readFileSync(join(base, path), 'utf8') }))
}

/**
 * Reads content/ (Markdown and site.yaml, and the listing of its images), locales/ and the static/
 * listing of the site at `root`, and the template sources of the package at `packageDir`.
 */
export async function readProject(root: string, packageDir: string): Promise<Project> {
  const [content, locales, staticFiles, templates] = await Promise.all([
    listFiles(join(root, 'content')),
    listFiles(join(root, 'locales')),
    listFiles(join(root, 'static')),
    listFiles(join(packageDir, 'templates')),
  ])
  const contentImages = content.filter(isImage)
  const [siteFiles, markdown, localeFiles, templateFiles, styleFiles, staticVersions, contentImageVersions] = await Promise.all([
    readAll(root, content.filter((f) => f === 'site.yaml').map((f) => `content/${f}`)),
    readAll(root, content.filter(isMarkdown).map((f) => `content/${f}`)),
    readAll(root, locales.filter(isYaml).map((f) => `locales/${f}`)),
    readAll(packageDir, templates.filter(isTemplate).map((f) => `templates/${f}`)),
    readAll(packageDir, templates.filter(isStyle).map((f) => `templates/${f}`)),
    versionsOf(join(root, 'static'), staticFiles),
    versionsOf(join(root, 'content'), contentImages),
  ])
  return {
    root, siteFile: siteFiles[0] ?? { path: 'content/site.yaml', text: '' }, content: markdown, localeFiles,
    staticFiles, staticVersions, contentImages, contentImageVersions, templateFiles, styleFiles,
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
    const text = () => readFile(join(base, path), 'utf8')
    if (path === 'content/site.yaml') next.siteFile = { path, text: stats ? await text() : '' }
    else if (folder === 'content' && isMarkdown(inner)) next.content = upsert(next.content, path, stats && await text())
    else if (folder === 'locales' && isYaml(inner)) next.localeFiles = upsert(next.localeFiles, path, stats && await text())
    else if (folder === 'templates' && isStyle(inner)) next.styleFiles = upsert(next.styleFiles, path, stats && await text())
    else if (folder === 'templates' && isTemplate(inner)) next.templateFiles = upsert(next.templateFiles, path, stats && await text())
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

/** `files` with `path` replaced, added (in order) or, when `text` is undefined, removed. */
function upsert(files: SourceFile[], path: string, text: string | undefined): SourceFile[] {
  const others = files.filter((f) => f.path !== path)
  return text === undefined ? others : [...others, { path, text }].sort((a, b) => (a.path < b.path ? -1 : 1))
}

/** The generator's own code, whose changes must not be answered from the build cache. */
export async function readCode(packageDir: string): Promise<SourceFile[]> {
  const paths = ['package.json', ...(await listFiles(join(packageDir, 'src'))).map((p) => `src/${p}`),
    ...(await listFiles(join(packageDir, 'templates/styles'))).map((p) => `templates/styles/${p}`)]
  return readAll(packageDir, paths)
}
