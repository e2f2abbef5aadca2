import type { Page } from '../../src/page/index.ts'

/**
 * The font service's stylesheet, kept off the critical path: it arrives as a print stylesheet,
 * which never holds back the first paint, and src/client/fonts.ts switches it to all media; a
 * <noscript> copy serves visitors without JavaScript. The service's faces use
 * `font-display: swap`, so text shows at once in the fallback stacks of site.css. Connections to
 * the service's origins open early (the font files' origin needs `crossorigin`, the
 * stylesheet's does not).
 */
export function WebFonts({ page }: { page: Page }) {
  const { stylesheet, preconnect } = page.site.fonts
  const stylesheetOrigin = new URL(stylesheet).origin
  return (
    <>
      {preconnect.map((href) => (
        <link key={href} rel="preconnect" href={href} crossOrigin={new URL(href).origin === stylesheetOrigin ? undefined : ''} />
      ))}
      <link rel="stylesheet" href={stylesheet} media="print" data-web-fonts="" />
      <noscript><link rel="stylesheet" href={stylesheet} /></noscript>
    </>
  )
}
