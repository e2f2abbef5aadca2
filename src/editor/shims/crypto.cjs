// node:crypto. The build names cached results and pages by hashes; in the editor they only need
// to tell texts apart, so a fast non-cryptographic hash (FNV-1a, two seeds) stands in.
function fnv(text, seed) {
  let h = seed >>> 0
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return h.toString(16).padStart(8, '0')
}

module.exports = {
  createHash() {
    let text = ''
    const hash = {
      update(data) { text += typeof data === 'string' ? data : new TextDecoder().decode(data); return hash },
      digest(encoding) {
        const hex = fnv(text, 0x811c9dc5) + fnv(text, 0x01000193)
        return encoding === 'hex' || encoding === undefined ? hex : btoa(hex).replace(/=+$/, '')
      },
    }
    return hash
  },
}
