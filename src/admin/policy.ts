/**
 * The content editor's own security policy. Stricter than the site's where it can be (no frame may
 * hold it, no plugin, no other site's scripts) and looser only where Decap CMS needs it:
 * - `style-src 'unsafe-inline'`: Decap styles its interface with emotion, which writes <style>
 *   elements at run time, with no way to give them a hash or a nonce on a static host;
 * - `img-src data: blob:`: previews of images chosen for upload, and Decap's icons;
 * - `connect-src`: the Git host's API (GitHub's is another origin; Git Gateway and the local
 *   backend of `clinic-build dev` answer on the site's own);
 * - `img-src` GitHub's avatars, with the GitHub backend: the signed-in editor's picture.
 * - `worker-src 'self'`: the preview's worker that reads long bodies (src/editor/body-reader.ts).
 * Scripts come from the site's own origin only: the editor's bundle and its chunks, which need no
 * 'unsafe-eval'. Pure.
 */
import type { Directives } from '../deploy/policy.ts'
import type { SiteConfig } from '../types.ts'

export function adminPolicy(site: SiteConfig): Directives {
  const github = site.admin.backend.name === 'github'
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(github ? ['https://avatars.githubusercontent.com'] : [])],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(github ? ['https://api.github.com'] : [])],
    'media-src': ["'self'", 'blob:'],
    'frame-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  }
}
