// Decap's backends, widgets and locales ship no types: only what src/editor/decap.ts uses of them.
declare module 'decap-cms-backend-*'
declare module 'decap-cms-widget-*' {
  import type { CmsWidgetParam } from 'decap-cms-core'
  const widget: { Widget: () => CmsWidgetParam }
  export default widget
}
declare module 'decap-cms-editor-component-image' {
  import type { EditorComponentOptions } from 'decap-cms-core'
  const component: EditorComponentOptions
  export default component
}
declare module 'decap-cms-locales' {
  export const en: Record<string, unknown>
}
