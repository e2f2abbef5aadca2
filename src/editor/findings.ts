/**
 * What the build and `clinic-build check` would say of the file an editor is about to save: its
 * front matter against the schema (src/content/parse.ts) and its words against the advertising
 * rules (src/check/compliance.ts, run here as it is, with src/compliance/rules.yaml bundled).
 */
import { lintCompliance } from '../check/compliance.ts'
import { parseDoc } from '../content/parse.ts'
import type { Diagnostic, Doc, SiteConfig } from '../types.ts'

export interface Judged {
  /** The page as the build would read it, when its front matter is valid. */
  doc?: Doc
  /** Errors first, then warnings; each with the words `clinic-build check` prints. */
  findings: Diagnostic[]
}

export function judge(path: string, text: string, site: SiteConfig): Judged {
  const file = { path, text }
  const parsed = parseDoc(file, site)
  const rules = lintCompliance({ sources: [file], staticFiles: [], site, pages: [] })
  const findings = [...parsed.diagnostics, ...rules].sort((a, b) => rank(a) - rank(b) || (a.line ?? 0) - (b.line ?? 0))
  return { ...(parsed.doc ? { doc: parsed.doc } : {}), findings }
}

const rank = (d: Diagnostic) => (d.severity === 'error' ? 0 : 1)
