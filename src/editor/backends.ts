/**
 * Decap's backends (GitHub, Git Gateway, the local one, the in-memory test one) with every path
 * they exchange translated between Decap's layout and the site's (layout.ts): the backend reads
 * and commits the site's own files, and Decap sees each page beside its translations.
 */
import type { Layout } from './layout.ts'

interface Entry { data: string | null; file: { path: string; label?: string; id?: string | null } }
interface DataFile { path: string; newPath?: string; slug?: string; raw?: string }
interface Diff { path: string; id?: string; newFile?: boolean }

/** The methods of Decap's backend interface (decap-cms-lib-util's Implementation) that carry paths. */
type Methods = Record<string, (...args: never[]) => unknown>

export function withLayout<T extends object>(backend: T, layout: Layout): T {
  const target = backend as T & Methods
  const call = <R>(name: string, ...args: unknown[]) => (target[name] as (...a: unknown[]) => R).apply(target, args)
  const toEditorEntries = (entries: Entry[]) => entries.flatMap((e) => {
    const path = layout.toEditor(e.file.path, e.data ?? undefined)
    return path ? [{ ...e, file: { ...e.file, path } }] : []
  })
  /** A collection folder is read as the site folders of each of its languages. */
  const listed = async (name: string, folder: string, extension: string, depth: number, ...rest: unknown[]) => {
    // A collection of one page lists that page, in each language that has it.
    const page = layout.pageOf(folder)
    if (page) {
      const found = await Promise.all(page.map((p) => call<Promise<Entry>>('getEntry', p.site).then((e) => (e.data == null ? [] : [{ ...e, file: { ...e.file, path: p.editor } }]), () => [])))
      return found.flat()
    }
    const folders = layout.foldersOf(folder)
    if (!folders) return call<Promise<Entry[]>>(name, folder, extension, depth, ...rest)
    const lists = await Promise.all(folders.map((f) => call<Promise<Entry[]>>(name, f.folder, extension, 1).catch(() => [] as Entry[])))
    // A language's top folder holds several kinds of page: each goes to its own collection.
    return toEditorEntries(lists.flat()).filter((e) => e.file.path.startsWith(`${folder}/`))
  }
  const wrapped: Methods = {
    entriesByFolder: (folder: string, extension: string, depth: number) => listed('entriesByFolder', folder, extension, depth),
    allEntriesByFolder: (folder: string, extension: string, depth: number) => listed('allEntriesByFolder', folder, extension, depth),
    entriesByFiles: async (files: { path: string; label?: string }[]) => {
      const entries = await call<Promise<Entry[]>>('entriesByFiles', files.map((f) => ({ ...f, path: layout.toSite(f.path) })))
      return entries.map((e, i) => ({ ...e, file: { ...e.file, path: files[i]?.path ?? e.file.path } }))
    },
    getEntry: async (path: string) => {
      const entry = await call<Promise<Entry>>('getEntry', layout.toSite(path))
      return { ...entry, file: { ...entry.file, path } }
    },
    persistEntry: (entry: { dataFiles: DataFile[] }, options: unknown) => call('persistEntry', {
      ...entry,
      dataFiles: entry.dataFiles.map((f) => ({
        ...f, path: layout.toSite(f.path), ...(f.newPath ? { newPath: layout.toSite(f.newPath) } : {}),
        ...(f.raw === undefined ? {} : { raw: withoutEmptyFields(f.raw) }),
      })),
    }, options),
    deleteFiles: (paths: string[], message: string) => call('deleteFiles', paths.map(layout.toSite), message),
    unpublishedEntry: async (args: unknown) => {
      const entry = await call<Promise<{ diffs: Diff[] }>>('unpublishedEntry', args)
      return { ...entry, diffs: entry.diffs.map((d) => ({ ...d, path: layout.toEditor(d.path) ?? d.path })) }
    },
    unpublishedEntryDataFile: (collection: string, slug: string, path: string, id: string) => call('unpublishedEntryDataFile', collection, slug, layout.toSite(path), id),
  }
  return new Proxy(target, {
    get(object, name, receiver) {
      if (typeof name === 'string' && name in wrapped && typeof object[name] === 'function') return wrapped[name]
      const value: unknown = Reflect.get(object, name, receiver)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(object) : value
    },
  })
}

/**
 * Decap fills a translation's shared fields from the default language's, and writes those the
 * default language left empty as `null` (`slug: null`), which the schema refuses: an empty
 * optional field is left out, as an editor writing the file would.
 */
export function withoutEmptyFields(raw: string): string {
  const front = /^---\n([\s\S]*?\n)---\n/.exec(raw)
  if (!front) return raw
  const kept = front[1]!.replace(/^[A-Za-z][\w-]*:[ \t]*(?:null|~|''|"")?[ \t]*\n(?![ \t]+\S|-)/gm, '')
  return `---\n${kept}---\n${raw.slice(front[0].length)}`
}
