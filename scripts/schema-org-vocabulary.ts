/**
 * Writes src/check/schema-org-vocabulary.json, the facts of one schema.org release that the
 * structured-data check and its tests judge against (src/check/structured-data.ts): each type with the types it
 * extends, each enumeration member with its enumeration, each property with the types it belongs
 * to and the types of its values, and the terms superseded by others. Descriptions are left out.
 *
 *   npx tsx scripts/schema-org-vocabulary.ts <release> <path of that release's schemaorg-current-https.jsonld>
 *
 * The file is published in schema.org's repository under data/releases/<release>/.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

type Ref = { '@id': string }
type Term = { '@id': string; '@type': string | string[]; 'rdfs:subClassOf'?: Ref | Ref[]; 'schema:domainIncludes'?: Ref | Ref[]; 'schema:rangeIncludes'?: Ref | Ref[]; 'schema:supersededBy'?: Ref | Ref[] }

const [release, path] = process.argv.slice(2)
if (!release || !path) {
  console.error('usage: npx tsx scripts/schema-org-vocabulary.ts <release> <schemaorg-current-https.jsonld>')
  process.exit(2)
}
const graph = (JSON.parse(readFileSync(path, 'utf8')) as { '@graph': Term[] })['@graph']
const name = (id: string) => id.replace(/^schema:/, '')
const names = (refs: Ref | Ref[] | undefined) => [refs ?? []].flat().map((r) => r['@id']).filter((id) => id.startsWith('schema:')).map(name).sort()
const kinds = (term: Term) => [term['@type']].flat()

const types: Record<string, string[]> = {}
const members: Record<string, string[]> = {}
const properties: Record<string, { on: string[]; values: string[] }> = {}
const superseded: string[] = []
for (const term of graph.sort((a, b) => (a['@id'] < b['@id'] ? -1 : 1))) {
  if (!term['@id'].startsWith('schema:')) continue
  const id = name(term['@id'])
  if (term['schema:supersededBy']) superseded.push(id)
  if (kinds(term).includes('rdfs:Class')) types[id] = names(term['rdfs:subClassOf'])
  else if (kinds(term).includes('rdf:Property')) properties[id] = { on: names(term['schema:domainIncludes']), values: names(term['schema:rangeIncludes']) }
  else members[id] = kinds(term).filter((k) => k.startsWith('schema:')).map(name)
}
const out = join(import.meta.dirname, '../src/check/schema-org-vocabulary.json')
writeFileSync(out, JSON.stringify({ release, types, members, properties, superseded }) + '\n')
console.log(`${out}: release ${release}, ${Object.keys(types).length} types, ${Object.keys(properties).length} properties, ${Object.keys(members).length} enumeration members`)
