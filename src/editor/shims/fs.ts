/**
 * node:fs: src/check/compliance.ts reads src/compliance/rules.yaml when it loads, and
 * src/util/package.ts looks for package.json. The rules' text is bundled (src/admin/bundle.ts).
 */
declare const CLINIC_COMPLIANCE_RULES: string

export function readFileSync(path: string): string {
  if (String(path).endsWith('compliance/rules.yaml')) return CLINIC_COMPLIANCE_RULES
  throw new Error(`The content editor cannot read ${path}`)
}

export const existsSync = (path: string) => String(path).endsWith('package.json')
