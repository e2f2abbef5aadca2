/** Reads content/site.yaml into the site configuration, or the diagnostics that say what is wrong. */
import { siteSchema, type SiteConfig } from './schemas/site.ts'
import type { Diagnostic, SourceFile } from '../types.ts'
import { validate } from './validate.ts'
import { parseYaml } from './yaml.ts'

/** Parses and validates content/site.yaml. */
export function parseSite(file: SourceFile): { site?: SiteConfig; diagnostics: Diagnostic[] } {
  if (file.problem) return { diagnostics: [file.problem] }
  const parsed = parseYaml(file.text, file.path)
  if (Array.isArray(parsed)) return { diagnostics: parsed }
  const result = validate(siteSchema(), parsed, { file: file.path, code: 'InvalidSiteConfig' })
  return 'value' in result ? { site: result.value, diagnostics: [] } : { diagnostics: result.diagnostics }
}
