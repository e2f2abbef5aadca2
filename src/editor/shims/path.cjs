// node:path: the joins and folder names of paths the build's code makes as it loads.
const join = (...parts) => parts.filter(Boolean).join('/').replace(/\/+/g, '/')
module.exports = {
  join,
  resolve: join,
  dirname: (path) => path.replace(/\/[^/]*\/?$/, '') || '/',
  relative: (from, to) => (to.startsWith(`${from}/`) ? to.slice(from.length + 1) : to),
}
