/**
 * The response headers a build declares in `<out>/_headers` (Netlify's format), applied the way
 * Netlify's own local server does: every rule whose path matches, in file order, later values
 * replacing earlier ones.
 *
 *   /assets/*
 *     Cache-Control: public, max-age=31536000, immutable
 */
import { parseAllHeaders, type Header } from '@netlify/headers-parser'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export type HeaderRules = (pathname: string) => Record<string, string>

/** Reads `<dir>/_headers`; problems in it are reported through `warn` and their lines skipped. */
export async function loadHeaderRules(dir: string, warn: (message: string) => void): Promise<HeaderRules> {
  const file = join(dir, '_headers')
  if (!existsSync(file)) return () => ({})
  const { headers, errors } = await parseAllHeaders({ headersFiles: [file], configHeaders: [], minimal: false })
  for (const error of errors) warn(`${file}: ${error.message}`)
  const rules = headers as Header[]
  return (pathname) => Object.assign({}, ...rules.filter((r) => r.forRegExp.test(pathname)).map((r) => r.values))
}
