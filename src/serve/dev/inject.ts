/**
 * What the dev server adds to each page it writes (never to a production build): the small client
 * script that listens for rebuilds, and the visible notices on drafts and untranslated pages.
 */
export const CLIENT_PATH = '/__clinic/dev-client.js'

const SCRIPT = `<script type="module" src="${CLIENT_PATH}"></script>`
const NOTICE_STYLE = 'margin:0;padding:.6rem 1rem;background:#fff4c2;color:#1f1f1f;border-bottom:2px solid #8a6d00;font:600 1rem/1.4 system-ui,sans-serif;text-align:center'

/** '<html><head>…</head><body>…' -> the same page with the client script and the notices. */
export function injectDev(html: string, notices: string[]): string {
  const withScript = html.includes('</head>') ? html.replace('</head>', `${SCRIPT}</head>`) : `${SCRIPT}${html}`
  if (notices.length === 0) return withScript
  const aside = `<aside data-clinic-preview aria-label="Preview" style="${NOTICE_STYLE}">${notices.map((n) => `<p style="margin:0">${escapeHtml(n)}</p>`).join('')}</aside>`
  return withScript.replace(/<body[^>]*>/, (body) => `${body}${aside}`)
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
