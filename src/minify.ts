/** HTML minification with html-minifier-terser; the markup React emits is already compact. */
import { minify } from 'html-minifier-terser'

const options = {
  collapseWhitespace: true,
  conservativeCollapse: true,
  removeComments: true,
  collapseBooleanAttributes: true,
  removeRedundantAttributes: true,
  useShortDoctype: true,
  decodeEntities: true,
}

export function minifyHtml(html: string): Promise<string> {
  return minify(html, options)
}
