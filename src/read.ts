/** The build's only input stage: reads the site folder and the templates into plain data. */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { Project, SourceFile } from './types.ts'

/** Files under `dir` (recursively), relative to it, with forward slashes; [] when it is absent. */
export async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    return entries.filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

async function readAll(base: string, paths: string[]): Promise<SourceFile[]> {
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(base, path), 'utf8') })))
}

/**
 * Reads content/ (Markdown and site.yaml), locales/ and the static/ listing of the site at `root`,
 * and the template sources of the package at `packageDir`.
 */
export async function readProject(root: string, packageDir: string): Promise<Project> {
  const [content, locales, staticFiles, templates] = await Promise.all([
    listFiles(join(root, 'content')),
    listFiles(join(root, 'locales')),
    listFiles(join(root, 'static')),
    listFiles(join(packageDir, 'templates')),
  ])
  const [siteFiles, markdown, localeFiles, templateFiles] = await Promise.all([
    readAll(root, content.filter((f) => f === 'site.yaml').map((f) => `content/${f}`)),
    readAll(root, content.filter((f) => f.endsWith('.md')).map((f) => `content/${f}`)),
    readAll(root, locales.filter((f) => /\.ya?ml$/.test(f)).map((f) => `locales/${f}`)),
    readAll(packageDir, templates.filter((f) => f.endsWith('.tsx')).map((f) => `templates/${f}`)),
  ])
  return { root, siteFile: siteFiles[0] ?? { path: 'content/site.yaml', text: '' }, content: markdown, localeFiles, staticFiles, templateFiles }
}

/** The generator's own code, whose changes must not be answered from the build cache. */
export async function readCode(packageDir: string): Promise<SourceFile[]> {
  const paths = ['package.json', ...(await listFiles(join(packageDir, 'src'))).map((p) => `src/${p}`),
    ...(await listFiles(join(packageDir, 'templates/styles'))).map((p) => `templates/styles/${p}`)]
  return readAll(packageDir, paths)
}
