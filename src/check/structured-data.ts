/**
 * The `structured-data` check: every JSON-LD block of every page, judged against one release of
 * the schema.org vocabulary (schema-org-vocabulary.json, written by
 * scripts/schema-org-vocabulary.ts): every type and property must be defined and not superseded,
 * every property must be one schema.org gives the node's type (or a type it extends), and every
 * value must be of a type the property takes. Text is accepted where the property takes a thing
 * (schema.org's data model allows a name in place of a thing), never in place of a Date,
 * DateTime, Time, Number or Boolean, and those literals must be written as schema.org defines them.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { problem } from '../errors.ts'
import { packageDir } from '../util/package.ts'
import type { Diagnostic } from '../types.ts'
import { readHtml, select, textOf } from './html.ts'

interface Vocabulary {
  release: string
  types: Record<string, string[]>
  members: Record<string, string[]>
  properties: Record<string, { on: string[]; values: string[] }>
  superseded: string[]
}

/** Read when first judged: 171 KB that the other checks and the build do not need. */
export function vocabulary(): Vocabulary & { supersededSet: Set<string> } {
  if (!loaded) {
    const read = JSON.parse(readFileSync(join(packageDir, 'src/check/schema-org-vocabulary.json'), 'utf8')) as Vocabulary
    loaded = { ...read, supersededSet: new Set(read.superseded) }
  }
  return loaded
}
let loaded: ReturnType<typeof vocabulary> | undefined

/** The findings in one built page's JSON-LD blocks. */
export function structuredDataFindings(path: string, html: string): Diagnostic[] {
  const scripts = select(readHtml(path, html).doc, (el) => el.name === 'script' && el.attribs.type === 'application/ld+json')
  return scripts.flatMap((script) => {
    let document: unknown
    try {
      document = JSON.parse(textOf(script))
    } catch (error) {
      return [problem('InvalidStructuredData', [vocabulary().release, `not JSON (${(error as Error).message})`], { file: path })]
    }
    return judgeJsonLd(document).map((finding) => problem('InvalidStructuredData', [vocabulary().release, finding], { file: path }))
  })
}

/** `type` and every type it extends. */
function lineage(type: string, seen = new Set<string>()): Set<string> {
  if (seen.has(type)) return seen
  seen.add(type)
  for (const parent of vocabulary().types[type] ?? []) lineage(parent, seen)
  return seen
}
const extendsAny = (type: string, wanted: string[]) => wanted.some((w) => lineage(type).has(w))

/** Literal formats of schema.org's data types (its definitions of Date, DateTime and Time). */
const FORMATS: Record<string, RegExp> = {
  Date: /^\d{4}-\d{2}-\d{2}$/,
  DateTime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/,
  Time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
}
const MEMBER = /^https:\/\/schema\.org\/(\w+)$/

/** What is wrong with one string given for a property taking `values`; undefined when it is right. */
function judgeString(value: string, values: string[]): string | undefined {
  const member = MEMBER.exec(value)?.[1]
  if (member && vocabulary().members[member]) {
    return vocabulary().members[member]!.some((type) => extendsAny(type, values)) ? undefined : `${member} is not one of ${values.join(', ')}`
  }
  if (values.some((v) => extendsAny(v, ['Text']))) return undefined
  const formats = values.filter((v) => FORMATS[v])
  if (formats.some((v) => FORMATS[v]!.test(value))) return undefined
  if (values.some((v) => extendsAny(v, ['Thing']) && !extendsAny(v, ['DataType']))) return undefined
  return formats.length > 0
    ? `"${value}" is not written as schema.org's ${formats.join(' or ')} (${formats.map((f) => FORMATS[f]!.source).join(', ')})`
    : `text "${value}" where it takes ${values.join(', ')}`
}

/** Every finding in a JSON-LD document, each naming where it is (`MedicalClinic.inLanguage: …`). */
export function judgeJsonLd(document: unknown): string[] {
  const { types, properties, supersededSet: superseded } = vocabulary()
  const findings: string[] = []
  const judgeNode = (node: Record<string, unknown>, where: string) => {
    const type = node['@type']
    if (typeof type !== 'string') {
      if (Object.keys(node).some((k) => !k.startsWith('@'))) findings.push(`${where}: a node with properties and no @type`)
      return
    }
    if (!types[type]) return void findings.push(`${where}: ${type} is not a schema.org type`)
    if (superseded.has(type)) findings.push(`${where}: ${type} is superseded`)
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('@')) continue
      const at = `${type}.${key}`
      const property = properties[key]
      if (!property) { findings.push(`${at}: not a schema.org property`); continue }
      if (superseded.has(key)) findings.push(`${at}: superseded`)
      if (!extendsAny(type, property.on)) findings.push(`${at}: not a property of ${type} (it belongs to ${property.on.join(', ')})`)
      for (const item of [value].flat()) {
        if (item === null || item === undefined) findings.push(`${at}: empty`)
        else if (typeof item === 'string') {
          const wrong = judgeString(item, property.values)
          if (wrong) findings.push(`${at}: ${wrong}`)
        } else if (typeof item === 'number') {
          if (!property.values.some((v) => extendsAny(v, ['Number', 'Text']))) findings.push(`${at}: a number where it takes ${property.values.join(', ')}`)
        } else if (typeof item === 'boolean') {
          if (!property.values.includes('Boolean')) findings.push(`${at}: true or false where it takes ${property.values.join(', ')}`)
        } else if (typeof item === 'object') {
          const inner = item as Record<string, unknown>
          if (typeof inner['@type'] === 'string' && types[inner['@type']] && !extendsAny(inner['@type'], property.values)) {
            findings.push(`${at}: a ${inner['@type']} where it takes ${property.values.join(', ')}`)
          }
          judgeNode(inner, at)
        }
      }
    }
  }
  const graph = (document as { '@graph'?: unknown })['@graph']
  if ((document as { '@context'?: unknown })['@context'] !== 'https://schema.org') findings.push('@context: not https://schema.org')
  for (const node of Array.isArray(graph) ? graph : [document]) judgeNode(node as Record<string, unknown>, 'graph')
  return findings
}
