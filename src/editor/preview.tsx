/**
 * The preview pane: the page in the language chosen above it, rendered by the site's templates,
 * under the findings the build and `clinic-build check` would print for the file as it stands.
 */
import './jitless.ts'
import { useState } from 'react'
import type { CollectionLayout } from '../admin/config.ts'
import type { RenderInput } from '../render/renderer.ts'
import type { Diagnostic } from '../types.ts'
import { judge } from './findings.ts'
import type { Layout } from './layout.ts'
import { markdownFile, slugOf, type EntryData } from './page-source.ts'
import { usePreviewBody } from './preview-body.ts'
import { renderPreview } from './render-page.ts'

/** The part of Decap's Immutable entry the preview reads. */
interface Entry { get: (key: string) => unknown; getIn: (path: string[]) => { toJS: () => EntryData } | undefined }

/** `bodyReader`: the script of the worker that reads long bodies (body-reader.ts). */
export function previewOf(collection: CollectionLayout, layout: Layout, site: RenderInput, bodyReader?: string) {
  const defaultLocale = collection.locales.includes(site.site.defaultLocale) ? site.site.defaultLocale : collection.locales[0]!
  return function Preview(props: { entry: unknown }) {
    const entry = props.entry as Entry
    const [locale, setLocale] = useState(defaultLocale)
    const data = (locale === defaultLocale ? entry.getIn(['data']) : entry.getIn(['i18n', locale, 'data']))?.toJS() ?? {}
    const slug = String(entry.get('slug') || '') || slugOf(entry.getIn(['data'])?.toJS().title)
    const path = layout.toSite(`${collection.folder}/${locale}/${slug}.md`)
    const { doc, findings } = judge(path, markdownFile(data), site.site)
    const body = usePreviewBody(doc, site.site.bodyTimeLimit, bodyReader)
    const page = doc && body ? renderPreview(doc, site, body.tree) : undefined
    return (
      <div>
        <nav aria-label="Language of the preview" style={BAR}>
          {collection.locales.map((code) => (
            <button type="button" key={code} aria-pressed={code === locale} onClick={() => setLocale(code)} style={code === locale ? CHOSEN : BUTTON}>
              {site.messages[code]?.['language.name'] ?? code}
            </button>
          ))}
        </nav>
        <Findings findings={body?.refusal ? [body.refusal, ...findings] : findings} file={path} />
        {body?.reading && <p role="status" data-reading-body style={{ ...BOX, borderColor: '#767676' }}>Reading the text of this long page, for at most {body.reading.seconds} s, as the build does.</p>}
        {page && <div lang={page.lang} data-preview-page dangerouslySetInnerHTML={{ __html: page.body }} />}
      </div>
    )
  }
}

function Findings({ findings, file }: { findings: Diagnostic[]; file: string }) {
  if (findings.length === 0) return <p role="status" data-findings="none" style={{ ...BOX, borderColor: '#2e7d32' }}>No problems found in {file}: the advertising rules and the page's fields are satisfied.</p>
  return (
    <section aria-label="Problems clinic-build check would report" data-findings={findings.length} style={{ ...BOX, borderColor: '#b3261e' }}>
      <p style={{ margin: 0, fontWeight: 600 }}>{findings.length} problem{findings.length === 1 ? '' : 's'} in {file} that <code>clinic-build check</code> would report:</p>
      <ul style={{ margin: '.5rem 0 0', paddingLeft: '1.25rem' }}>
        {findings.map((d, i) => (
          <li key={i} data-code={d.code}>
            <strong>{d.severity === 'warning' ? 'warning ' : ''}{d.code}</strong> {d.message}
            {d.hint && <><br /><span style={{ color: '#444' }}>hint: {d.hint}</span></>}
          </li>
        ))}
      </ul>
    </section>
  )
}

const BAR = { display: 'flex', gap: '.5rem', padding: '.5rem', background: '#f4f4f4', font: '600 .9rem/1.4 system-ui, sans-serif' }
const BUTTON = { padding: '.25rem .75rem', border: '1px solid #767676', borderRadius: '4px', background: '#fff', color: '#1f1f1f', cursor: 'pointer' }
const CHOSEN = { ...BUTTON, background: '#1f1f1f', color: '#fff' }
const BOX = { margin: '.5rem', padding: '.75rem 1rem', border: '2px solid', borderRadius: '4px', background: '#fff', color: '#1f1f1f', font: '.9rem/1.5 system-ui, sans-serif' }
