// node:url: the path of a module's own address.
module.exports = {
  fileURLToPath: (url) => new URL(url).pathname,
  pathToFileURL: (path) => new URL(`file://${path}`),
}
