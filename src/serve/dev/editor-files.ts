/**
 * What the content editor's local backend may touch in the site folder: the Markdown files under
 * content/ and the files under the media folder (static/images/), nothing else, read or write.
 * Every request body of Decap's proxy protocol (decap-server's local-fs middleware) is checked
 * here before decap-server sees it: its action must be one the editor uses, and every path it
 * carries must be a plain relative path (no `.` or `..` part, also percent-encoded, no dot file,
 * no backslash) that stays in its area once each link on the way is followed. Listings are made
 * here, so that a link under content/ leading out is left out instead of read.
 *
 *   check({ action: 'getEntry', params: { path: 'content/en/contact.md', … } }) -> { pass: body }
 *   check({ action: 'getEntry', params: { path: 'package.json', … } })          -> { refuse: { status: 403, … } }
 */
import { createHash } from 'node:crypto'
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { basename, dirname, join, sep } from 'node:path'
import { MEDIA_FOLDER } from '../../admin/config.ts'

export const CONTENT_FOLDER = 'content'

type Body = { action: string; params: Record<string, unknown> }

export type Verdict =
  | { pass: Body }
  | { answer: unknown }
  | { refuse: { status: 400 | 403 | 422; error: string } }

/** What a path may name: a page's Markdown file, a media file, or a folder of pages to list. */
type Area = 'page' | 'media' | 'pages folder'

/** Deeper listings than this are never asked for by the editor (its collections are one level deep). */
const MAX_DEPTH = 10

class Refusal extends Error {
  constructor(readonly status: 400 | 403, message: string) { super(message) }
}

export interface EditorFiles {
  check: (body: unknown) => Promise<Verdict>
}

/** `warn` is told once of each file a listing leaves out (a link leading out of its folder). */
export function editorFiles(root: string, warn: (message: string) => void = () => {}): EditorFiles {
  const warned = new Set<string>()
  const inside = async (path: string, areas: Area[]): Promise<string> => {
    const area = areaOf(path, areas)
    const base = area === 'media' ? MEDIA_FOLDER : CONTENT_FOLDER
    const [{ real, kind }, { real: realBase }] = await Promise.all([realTarget(root, path), realTarget(root, base)])
    if (!real.startsWith(realBase + sep) && !(area === 'pages folder' && real === realBase)) {
      throw new Refusal(403, `"${path}" is a link that leads out of ${base}/: the local backend does not follow it.`)
    }
    if (area === 'page' && !real.endsWith('.md')) throw new Refusal(403, `"${path}" is a link to a file that is not Markdown: the local backend does not follow it.`)
    if (kind !== 'none' && kind !== (area === 'pages folder' ? 'folder' : 'file')) throw new Refusal(403, `"${path}" is not a ${area === 'pages folder' ? 'folder' : 'file'}.`)
    return path
  }

  /** The files of a folder `depth` levels down, as decap-server lists them, each kept only if it stays in its area. */
  const listed = async (folder: string, depth: number, area: Area, keep: (name: string) => boolean): Promise<string[]> => {
    if (depth <= 0) return []
    const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => [])
    const found = await Promise.all(entries.filter((e) => !e.name.startsWith('.')).map(async (entry): Promise<string[]> => {
      const path = `${folder}/${entry.name}`
      if (entry.isDirectory()) return listed(path, depth - 1, area, keep)
      if (!keep(entry.name)) return []
      return inside(path, [area]).then((p) => [p], (error: unknown) => {
        if (!(error instanceof Refusal)) throw error
        if (!warned.has(path)) warn(`${path}: left out of the content editor. ${error.message}`)
        warned.add(path)
        return []
      })
    }))
    return found.flat()
  }

  const check = async (body: unknown): Promise<Verdict> => {
    if (!isRecord(body) || typeof body.action !== 'string') return { refuse: { status: 400, error: 'The request names no action.' } }
    const params = isRecord(body.params) ? body.params : {}
    const request = { action: body.action, params }
    try {
      switch (body.action) {
        case 'info':
        case 'getDeployPreview':
          return { pass: request }
        case 'entriesByFolder': {
          // Listed here and read by decap-server as the list of files it is: the same answer.
          const folder = await inside(text(params.folder, 'folder'), ['pages folder'])
          const depth = Math.min(Number(params.depth) || 1, MAX_DEPTH)
          const extension = typeof params.extension === 'string' ? params.extension : 'md'
          const files = await listed(folder, depth, 'page', (name) => name.endsWith(extension) && name.endsWith('.md'))
          return { pass: { action: 'entriesByFiles', params: { branch: params.branch, files: files.map((path) => ({ path })) } } }
        }
        case 'entriesByFiles':
          await Promise.all(list(params.files, 'files').map((file) => inside(text(isRecord(file) ? file.path : undefined, 'files[].path'), ['page'])))
          return { pass: request }
        case 'getEntry':
          await inside(text(params.path, 'path'), ['page'])
          return { pass: request }
        case 'persistEntry': {
          // decap-server writes `entry` when there are no dataFiles (an older client's request); both are checked.
          const dataFiles = params.dataFiles === undefined ? [params.entry] : [...list(params.dataFiles, 'dataFiles'), ...(params.entry === undefined ? [] : [params.entry])]
          for (const file of dataFiles) {
            if (!isRecord(file)) throw new Refusal(400, 'Each of dataFiles must be an object.')
            await inside(text(file.path, 'dataFiles[].path'), ['page'])
            if (file.newPath !== undefined) await inside(text(file.newPath, 'dataFiles[].newPath'), ['page'])
          }
          for (const asset of list(params.assets ?? [], 'assets')) await inside(text(isRecord(asset) ? asset.path : undefined, 'assets[].path'), ['media'])
          // The site keeps one file per page, never a folder per page: a renamed page moves its
          // own file, not (decap-server's default) every file beside it.
          const options = isRecord(params.options) ? { ...params.options, hasSubfolders: false } : params.options
          return { pass: { action: request.action, params: { ...params, options } } }
        }
        case 'getMedia': {
          if (text(params.mediaFolder, 'mediaFolder') !== MEDIA_FOLDER) throw new Refusal(403, `The media folder is ${MEDIA_FOLDER}, not "${String(params.mediaFolder)}".`)
          const files = await listed(MEDIA_FOLDER, 1, 'media', () => true)
          return { answer: await Promise.all(files.map((path) => mediaFile(root, path))) }
        }
        case 'getMediaFile':
          await inside(text(params.path, 'path'), ['media'])
          return { pass: request }
        case 'persistMedia':
          await inside(text(isRecord(params.asset) ? params.asset.path : undefined, 'asset.path'), ['media'])
          return { pass: request }
        case 'deleteFile':
          await inside(text(params.path, 'path'), ['page', 'media'])
          return { pass: request }
        case 'deleteFiles':
          await Promise.all(list(params.paths, 'paths').map((path) => inside(text(path, 'paths[]'), ['page', 'media'])))
          return { pass: request }
        default:
          return { refuse: { status: 422, error: `The local backend does not take the action "${body.action.slice(0, 60)}".` } }
      }
    } catch (error) {
      if (error instanceof Refusal) return { refuse: { status: error.status, error: error.message } }
      throw error
    }
  }

  return { check }
}

/**
 * Which area a path names, or a refusal. The path must be as decap-server's client writes it:
 * relative to the site folder, `/`-separated, each part a plain name.
 */
function areaOf(path: string, areas: Area[]): Area {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) throw new Refusal(403, `"${printable(path)}" holds a backslash or a control character.`)
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) throw new Refusal(403, `"${printable(path)}" is an absolute path: the local backend takes paths relative to the site folder.`)
  const parts = path.split('/')
  if (parts.some((part) => part === '' || decoded(part).startsWith('.') || /[/\\]/.test(decoded(part)))) {
    throw new Refusal(403, `"${printable(path)}" has an empty, "." or ".." part or names a dot file (also when percent-encoded): the local backend takes plain paths inside the site folder.`)
  }
  const under = (folder: string) => path.startsWith(`${folder}/`)
  for (const area of areas) {
    if (area === 'page' && under(CONTENT_FOLDER) && path.endsWith('.md')) return area
    if (area === 'media' && under(MEDIA_FOLDER)) return area
    if (area === 'pages folder' && (path === CONTENT_FOLDER || under(CONTENT_FOLDER))) return area
  }
  const allowed = areas.map((a) => (a === 'page' ? `the Markdown files under ${CONTENT_FOLDER}/` : a === 'media' ? `the files under ${MEDIA_FOLDER}/` : `the folders under ${CONTENT_FOLDER}/`))
  throw new Refusal(403, `"${printable(path)}" is outside the editor's files: here the local backend touches ${allowed.join(' and ')} only.`)
}

/**
 * Where a path leads once every link on the way is followed, as decap-server resolves it: the
 * longest part that exists, with its links followed, then the parts still to be made; and what
 * it is when it exists.
 */
async function realTarget(root: string, path: string): Promise<{ real: string; kind: 'file' | 'folder' | 'other' | 'none' }> {
  const missing: string[] = []
  let existing = join(root, path)
  while (!(await exists(existing))) {
    missing.unshift(basename(existing))
    existing = dirname(existing)
  }
  const real = await realpath(existing).catch(() => { throw new Refusal(403, `"${path}" is a link to a file that does not exist.`) })
  if (missing.length > 0) return { real: join(real, ...missing), kind: 'none' }
  const stats = await stat(real)
  return { real, kind: stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'other' }
}

/** Whether something (a link to nothing included) is at the path. */
const exists = (path: string) => lstat(path).then(() => true, (error: NodeJS.ErrnoException) => {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return false
  throw error
})

/** A media file as decap-server's getMediaFile answers it. */
async function mediaFile(root: string, path: string) {
  const buffer = await readFile(join(root, path))
  return { id: createHash('sha256').update(buffer).digest('hex'), content: buffer.toString('base64'), encoding: 'base64', path, name: basename(path) }
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '' || value.length > 1024) throw new Refusal(400, `${name} must be a path of 1 to 1024 characters.`)
  return value
}

function list(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw new Refusal(400, `${name} must be a list.`)
  return value
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function decoded(part: string): string {
  try { return decodeURIComponent(part) } catch { return part }
}

/** A path as it can be shown in a message: control characters made visible, long ones cut. */
const printable = (path: string) => JSON.stringify(path.slice(0, 200)).slice(1, -1)
