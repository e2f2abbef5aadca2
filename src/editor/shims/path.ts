/** node:path: the joins and folder names of paths the build's code makes as it loads. */
export const join = (...parts: string[]) => parts.filter(Boolean).join('/').replace(/\/+/g, '/')
export const dirname = (path: string) => path.replace(/\/[^/]*\/?$/, '') || '/'
export const relative = (from: string, to: string) => (to.startsWith(`${from}/`) ? to.slice(from.length + 1) : to)
export const resolve = join
