// Any other Node module or native library the build's code imports but the editor never calls
// (sharp, the file system of the build cache): each of its functions says so if called.
module.exports = new Proxy({}, {
  get(_, name) {
    if (name === '__esModule') return false
    return function unavailable() { throw new Error(`${String(name)} is not available in the content editor`) }
  },
})
