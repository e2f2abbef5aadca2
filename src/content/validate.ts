/** Validation against a zod schema, reported as diagnostics at the offending YAML line. */
import type { z } from 'zod'
import { problem } from '../errors.ts'
import type { Diagnostic } from '../types.ts'
import { describeIssue, valueAt, type ParsedYaml } from './yaml.ts'

export function validate<S extends z.ZodType>(
  schema: S,
  parsed: ParsedYaml,
  report: { file: string; code: 'InvalidFrontMatter' | 'InvalidSiteConfig' },
): { value: z.infer<S> } | { diagnostics: Diagnostic[] } {
  const result = schema.safeParse(parsed.data)
  if (result.success) return { value: result.data }
  // zod reports unknown fields as one problem of their parent object: one each, at its own line.
  const issues = result.error.issues.flatMap((issue): z.core.$ZodIssue[] => (issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) => ({ ...issue, path: [...issue.path, key], keys: [key] }))
    : [issue]))
  const diagnostics = issues.map((issue) => {
    const { field, problem: what } = describeIssue(issue as never, valueAt(parsed.data, issue.path))
    return problem(report.code, [field, what], { file: report.file, ...parsed.locate(issue.path, { key: issue.code === 'unrecognized_keys' }) })
  })
  return { diagnostics }
}
