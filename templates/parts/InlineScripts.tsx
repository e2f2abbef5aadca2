import { inlineScripts } from '../../src/assets/inline-scripts.ts'

/**
 * The site's only inline scripts (see src/assets/inline-scripts.ts): the script-failure guard and the
 * root-path language redirect. Placed in <head> after the hreflang links the redirect reads.
 */
export function InlineScripts() {
  const { chunkGuard, rootRedirect } = inlineScripts()
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: chunkGuard }} />
      <script dangerouslySetInnerHTML={{ __html: rootRedirect }} />
    </>
  )
}
