/**
 * What each page tells its browser runtime, as JSON in `<script type="application/json"
 * id="runtime-data">` (rendered by templates/parts/RuntimeData.tsx, read by
 * src/client/runtime/data.ts). Pages of one locale carry the same block.
 */
export const RUNTIME_DATA_ID = 'runtime-data'

export interface RuntimeData {
  /** Every locale code, the default one, and this page's home page: for URLs built in the browser. */
  locales: string[]
  defaultLocale: string
  home: string
  /** The second part of every page title: "<page> | <siteName>". */
  siteName: string
  /** UI strings in the page's language, from the locale files' `runtime` group. */
  text: RuntimeText
  /** Present only when at least one tag ID is configured. */
  analytics?: { gtmId: string; gaId: string; pageViewEvent: string }
}

export interface RuntimeText {
  loading: string
  offline: string
  offlineNavigation: string
  errorTitle: string
  /** With `{status}`. */
  errorStatus: string
  backHome: string
  errorFallback: string
  errorFallbackText: string
  /** With `{details}`. */
  errorDetails: string
  errorFallbackHome: string
}

/** JSON that is safe inside a <script> element: no `</script>` or `<!--` can end it early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}
