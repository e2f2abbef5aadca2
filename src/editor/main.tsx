/**
 * The content editor at /admin/: Decap CMS with the configuration the build made from the schemas
 * (admin/config.json), its backends reading and writing the site's own layout (backends.ts), and a
 * preview pane that shows the site's templates (preview.tsx). On the computer of an editor running
 * `clinic-build dev` it saves through the dev server's local backend instead of the Git host.
 */
import { lazy, Suspense } from 'react'
import type { AdminConfig, CollectionLayout } from '../admin/config.ts'
import type { RenderInput } from '../render/renderer.ts'
import { withLayout } from './backends.ts'
import CMS from './decap.ts'
import { layoutOf, type Layout } from './layout.ts'

const BACKENDS = ['github', 'git-gateway', 'proxy', 'test-repo']

async function start(): Promise<void> {
  const [config, site] = await Promise.all([json<AdminConfig>('config.json'), json<RenderInput>('preview.json')])
  const layout = layoutOf(config.layout)
  // A collection's folder in Decap is content/<collection>: its first two segments name it.
  const fields = new Map(config.decap.collections.map((c) => [c.folder, c.fields.map((f) => f.name)]))
  const fieldsOf = (path: string) => fields.get(path.split('/').slice(0, 2).join('/')) ?? []
  for (const name of BACKENDS) registerWithLayout(name, layout, fieldsOf)
  const backend = await chosenBackend(config)
  const decap = { ...config.decap, backend }
  CMS.registerPreviewStyle(site.assets.stylesheet)
  // The worker that reads long bodies: its name holds a hash of its contents, which the page gives.
  const bodyReader = document.querySelector<HTMLScriptElement>('script[data-body-reader]')?.dataset.bodyReader
  for (const collection of config.layout) CMS.registerPreviewTemplate(collection.collection, previewWhenOpened(collection, layout, site, bodyReader) as never)
  CMS.init({ config: decap as never })
}

/**
 * The preview (the site's templates, schemas and advertising rules: a third of the editor) is
 * fetched when an entry is first opened, so the sign-in screen loads Decap alone.
 */
function previewWhenOpened(collection: CollectionLayout, layout: Layout, site: RenderInput, bodyReader: string | undefined) {
  const Preview = lazy(() => import('./preview.tsx').then((m) => ({ default: m.previewOf(collection, layout, site, bodyReader) })))
  return (props: { entry: unknown }) => <Suspense fallback={<p>Loading the preview…</p>}><Preview {...props} /></Suspense>
}

async function json<T>(file: string): Promise<T> {
  const response = await fetch(new URL(file, location.href))
  if (!response.ok) throw new Error(`${file}: ${response.status}`)
  return response.json() as Promise<T>
}

/** Decap's own backend under the name `clinic-<name>`, with the site's layout. */
function registerWithLayout(name: string, layout: Layout, fieldsOf: (path: string) => string[]): void {
  const original = CMS.getBackend(name) as { init: (...args: unknown[]) => object } | undefined
  if (!original) return
  // Decap calls `new` on what is registered: a constructor that returns an object gives that object.
  function Backend(...args: unknown[]) { return withLayout(original!.init(...args), layout, fieldsOf) }
  CMS.registerBackend(`clinic-${name}`, Backend as never)
}

/**
 * The Git host of site.yaml; on the editor's own computer, the local backend of `clinic-build dev`
 * when it answers (it saves files directly: no drafts to review, so no editorial workflow).
 */
async function chosenBackend(config: AdminConfig): Promise<Record<string, string>> {
  const backend = config.decap.backend
  if (['localhost', '127.0.0.1', '[::1]'].includes(location.hostname)) {
    const answer = await fetch(config.localBackend, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ action: 'info' }) }).catch(() => undefined)
    if (answer?.ok) {
      delete (config.decap as Partial<typeof config.decap>).publish_mode
      return { name: 'clinic-proxy', proxy_url: config.localBackend, branch: backend.branch ?? 'main' }
    }
  }
  return { ...backend, name: `clinic-${backend.name}` }
}

void start()
