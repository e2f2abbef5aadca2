// esbuild: the templates' <head> asks for the inline scripts' text (src/assets/inline-scripts.ts),
// which the preview, showing the page's <body> only, leaves out.
module.exports = {
  buildSync: () => ({ outputFiles: [{ text: '' }] }),
}
