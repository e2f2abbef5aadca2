/**
 * Decap's backends (GitHub, Git Gateway, the local one, the in-memory test one) with every path
 * they exchange translated between Decap's layout and the site's (layout.ts): the backend reads
 * and commits the site's own files, and Decap sees each page beside its translations. And a save
 * writes only what the editor changed (faithful-save.ts): each file read is kept as it was read,
 * and the file Decap makes of an entry is turned into that text with only the changed fields'
 * lines replaced; a translation the editor did not change is not written.
 */
import type { Layout } from './layout.ts'

interface Entry { data: string | null; file: { path: string; label?: string; id?: string | null } }
interface DataFile { path: string; newPath?: string; slug?: string; raw?: string }
interface Diff { path: string; id?: string; newFile?: boolean }

/** The methods of Decap's backend interface (decap-cms-lib-util's Implementation) that carry paths. */
type Methods = Record<string, (...args: never[]) => unknown>

/**
 * `fieldsOf`: the names of the fields of the collection a file (Decap's path) belongs to, in the
 * schema's order.
 */
export function withLayout<T extends object>(backend: T, layout: Layout, fieldsOf: (path: string) => string[] = () => []): T {
  const target = backend as T & Methods
  const call = <R>(name: string, ...args: unknown[]) => (target[name] as (...a: unknown[]) => R).apply(target, args)
  /** Each file as last read or written, by the site's path: what a save patches. */
  const asRead = new Map<string, string>()
  const remember = <E extends Entry>(entries: E[]) => {
    for (const e of entries) if (typeof e.data === 'string') asRead.set(e.file.path, e.data)
    return entries
  }
  const toEditorEntries = (entries: Entry[]) => remember(entries).flatMap((e) => {
    const path = layout.toEditor(e.file.path, e.data ?? undefined)
    return path ? [{ ...e, file: { ...e.file, path } }] : []
  })
  /** A collection folder is read as the site folders of each of its languages. */
  const listed = async (name: string, folder: string, extension: string, depth: number, ...rest: unknown[]) => {
    // A collection of one page lists that page, in each language that has it.
    const page = layout.pageOf(folder)
    if (page) {
      const found = await Promise.all(page.map((p) => call<Promise<Entry>>('getEntry', p.site).then((e) => (e.data == null ? [] : [{ ...remember([e])[0]!, file: { ...e.file, path: p.editor } }]), () => [])))
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
      const entries = remember(await call<Promise<Entry[]>>('entriesByFiles', files.map((f) => ({ ...f, path: layout.toSite(f.path) }))))
      return entries.map((e, i) => ({ ...e, file: { ...e.file, path: files[i]?.path ?? e.file.path } }))
    },
    getEntry: async (path: string) => {
      const entry = await call<Promise<Entry>>('getEntry', layout.toSite(path))
      remember([entry])
      return { ...entry, file: { ...entry.file, path } }
    },
    persistEntry: async (entry: { dataFiles: DataFile[] }, options?: { useWorkflow?: boolean }) => {
      // Fetched at the first save, with the YAML library it needs: the sign-in screen loads less.
      const { faithfulSave } = await import('./faithful-save.ts')
      const files = entry.dataFiles.map((f) => {
        const path = layout.toSite(f.path)
        const original = asRead.get(path)
        const raw = f.raw === undefined ? undefined : faithfulSave(original, f.raw, fieldsOf(f.path))
        return { ...f, path, ...(f.newPath ? { newPath: layout.toSite(f.newPath) } : {}), ...(f.raw === undefined ? {} : { raw: raw ?? original }), unchanged: f.raw !== undefined && raw === undefined }
      })
      // An unchanged file is left out; in a review (the editorial workflow) Decap expects every
      // language's file in the branch, so there it is sent as it was: Git sees no change.
      const dataFiles = files.filter((f) => options?.useWorkflow || !f.unchanged).map(({ unchanged: _, ...f }) => f)
      const saved = await call('persistEntry', { ...entry, dataFiles }, options)
      for (const f of dataFiles) if (f.raw !== undefined) asRead.set(f.newPath ?? f.path, f.raw)
      return saved
    },
    deleteFiles: (paths: string[], message: string) => call('deleteFiles', paths.map(layout.toSite), message),
    unpublishedEntry: async (args: unknown) => {
      const entry = await call<Promise<{ diffs: Diff[] }>>('unpublishedEntry', args)
      return { ...entry, diffs: entry.diffs.map((d) => ({ ...d, path: layout.toEditor(d.path) ?? d.path })) }
    },
    unpublishedEntryDataFile: async (collection: string, slug: string, path: string, id: string) => {
      const data = await call<Promise<string>>('unpublishedEntryDataFile', collection, slug, layout.toSite(path), id)
      remember([{ data, file: { path: layout.toSite(path) } }])
      return data
    },
  }
  return new Proxy(target, {
    get(object, name, receiver) {
      if (typeof name === 'string' && name in wrapped && typeof object[name] === 'function') return wrapped[name]
      const value: unknown = Reflect.get(object, name, receiver)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(object) : value
    },
  })
}
