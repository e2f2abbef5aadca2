// node:module: `createRequire` for the libraries src/util/on-first-use.ts loads on first use,
// bundled here instead.
const bundled = {
  'gray-matter': () => require('gray-matter'),
  yaml: () => require('yaml'),
  zod: () => require('zod'),
  htmlparser2: () => require('htmlparser2'),
  esbuild: () => require('esbuild'), // the stand-in of esbuild.cjs
}

module.exports = {
  createRequire: () => (specifier) => {
    if (specifier in bundled) return bundled[specifier]()
    throw new Error(`${specifier} is not part of the content editor`)
  },
}
