import type { Page } from '../../src/page.ts'

/**
 * The font service's stylesheet. Connections to the service's origins open early (the font
 * files' origin needs `crossorigin`, the stylesheet's does not), and the service's faces use
 * `font-display: swap`, so text shows at once in the fallback stacks of site.css and is never
 * held back by the fonts.
 */
export function WebFonts({ page }: { page: Page }) {
  const { stylesheet, preconnect } = page.site.fonts
  const stylesheetOrigin = new URL(stylesheet).origin
  return (
    <>
      {preconnect.map((href) => (
        <link key={href} rel="preconnect" href={href} crossOrigin={new URL(href).origin === stylesheetOrigin ? undefined : ''} />
      ))}
      <link rel="stylesheet" href={stylesheet} />
    </>
  )
}
