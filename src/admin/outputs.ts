/**
 * The files of /admin/: the page that starts the editor, its configuration (made from the
 * schemas and site.yaml at every build, src/admin/config.ts), the rest of the site as the preview
 * needs it (the build's RenderInput), the editor's bundle, and the `_headers` rule that gives the
 * folder its own security policy and keeps it out of search engines. Pure.
 */
import { serializePolicy } from '../deploy/policy.ts'
import type { HeaderRule } from '../deploy/static-hosts.ts'
import type { RenderInput } from '../render/renderer.ts'
import type { OutputFile, SiteConfig } from '../types.ts'
import { madeWhenRead } from '../util/memo.ts'
import type { EditorBundle } from './bundle.ts'
import { ADMIN_DIR, type AdminConfig } from './config.ts'
import { adminPolicy } from './policy.ts'

/**
 * `previewVersion` changes whenever the preview's inputs do (the Docs but their bodies, the
 * messages, the assets and images): the preview (3 MB at 4,000 articles) is then made only when
 * the output does not hold that version yet.
 */
export function adminFiles(site: SiteConfig, config: AdminConfig, input: RenderInput, bundle: EditorBundle, previewVersion: string): { files: OutputFile[]; headers: HeaderRule } {
  const policy = adminPolicy(site)
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${serializePolicy(policy, { meta: true })}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Content editor | ${escapeHtml(site.name)}</title>
${bundle.stylesheets.map((href) => `<link rel="stylesheet" href="${href}">\n`).join('')}<script type="module" src="${bundle.script}" data-body-reader="${bundle.bodyReader}"></script>
</head>
<body>
<noscript>The content editor needs JavaScript.</noscript>
</body>
</html>
`
  return {
    files: [
      { path: `${ADMIN_DIR}/index.html`, contents: page },
      { path: `${ADMIN_DIR}/config.json`, contents: JSON.stringify(config) },
      madeWhenRead({ path: `${ADMIN_DIR}/preview.json`, version: previewVersion }, () => JSON.stringify(previewData(input))),
      ...bundle.files,
    ],
    headers: {
      path: `/${ADMIN_DIR}/*`,
      headers: { 'Content-Security-Policy': serializePolicy(policy), 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-cache' },
    },
  }
}

/**
 * What the preview renders with: the route table is made again in the browser, around the edited
 * page, and no other page's body is shown, nor where it starts. Images in a fixed order, so the
 * file is the same on every build.
 */
function previewData(input: RenderInput): RenderInput {
  return {
    ...input, routes: [], docs: input.docs.map((doc) => ({ ...doc, bodyLine: 1 })),
    images: Object.fromEntries(Object.entries(input.images).sort(([a], [b]) => a.localeCompare(b))),
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
