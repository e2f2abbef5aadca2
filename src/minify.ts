/**
 * HTML minification with html-minifier-terser; the markup React emits is already compact.
 * `decodeEntities` is left off: on a typical 25 KB page it saves about 200 bytes (40 gzipped,
 * mostly &quot; in attributes) and doubles the minifier's time, a third of a cold build's.
 */
import { minify } from 'html-minifier-terser'

const options = {
  collapseWhitespace: true,
  conservativeCollapse: true,
  removeComments: true,
  collapseBooleanAttributes: true,
  removeRedundantAttributes: true,
  useShortDoctype: true,
}

export function minifyHtml(html: string): Promise<string> {
  return minify(html, options)
}
