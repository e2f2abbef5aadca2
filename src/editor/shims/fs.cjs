// node:fs. src/check/compliance.ts reads src/compliance/rules.yaml when it loads (bundled as
// text by src/admin/bundle.ts); src/util/package.ts looks for package.json. Written as CommonJS,
// so that the build's code may import other names from node:fs: they exist here as undefined,
// which matters only if the editor ever called them.
/* global CLINIC_COMPLIANCE_RULES */
module.exports = {
  readFileSync(path) {
    if (String(path).endsWith('compliance/rules.yaml')) return CLINIC_COMPLIANCE_RULES
    throw new Error(`The content editor cannot read ${path}`)
  },
  existsSync: (path) => String(path).endsWith('package.json'),
}
