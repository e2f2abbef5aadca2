/** node:url: the path of the module's own address. */
export const fileURLToPath = (url: string | URL) => new URL(url).pathname
export const pathToFileURL = (path: string) => new URL(`file://${path}`)
