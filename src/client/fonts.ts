/**
 * The font service's stylesheet arrives as `media="print"` so that it never blocks the first
 * paint (templates/parts/WebFonts.tsx); switching it to all media applies it once it has loaded.
 */
export function enableWebFonts(): void {
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-web-fonts]')) link.media = 'all'
}
