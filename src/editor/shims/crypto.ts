/**
 * node:crypto: the build names cached results and pages by hashes; in the editor they only need to
 * tell texts apart, so a fast non-cryptographic hash (two FNV-1a rounds) stands in.
 */
export function createHash(_algorithm: string) {
  let text = ''
  const hash = {
    update(data: string | Uint8Array) { text += typeof data === 'string' ? data : new TextDecoder().decode(data); return hash },
    digest(encoding?: string) {
      const hex = fnv(text, 0x811c9dc5) + fnv(text, 0x01000193)
      return encoding === 'hex' || encoding === undefined ? hex : btoa(hex).replace(/=+$/, '')
    },
  }
  return hash
}

function fnv(text: string, seed: number): string {
  let h = seed >>> 0
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return h.toString(16).padStart(8, '0')
}
