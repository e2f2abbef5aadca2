/**
 * Every sitemap and Atom feed the build writes, judged by schemas nobody on this project wrote:
 * sitemaps.org's sitemap.xsd as the npm package `sitemap` ships it, W3C's XHTML 1.0 schema for
 * the sitemap's hreflang links as Debian's python3-xmlschema ships it, and the RELAX NG schema of
 * RFC 4287 as Debian's raptor2 sources ship it (tests/support/rfc4287/README.md). The judge is
 * libxml2's xmllint compiled to WebAssembly (xmllint-wasm): no network, no system xmllint.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { validateXML, type XMLFileInfo } from 'xmllint-wasm'
import { build, type BuildResult } from '../../src/index.ts'
import { projectRoot } from '../support/helpers.ts'

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'
const ATOM_NS = 'http://www.w3.org/2005/Atom'

const sitemapPackage = dirname(createRequire(import.meta.url).resolve('sitemap/package.json'))
const sitemapVersion = (JSON.parse(readFileSync(join(sitemapPackage, 'package.json'), 'utf8')) as { version: string }).version
const XMLSCHEMA = '/usr/lib/python3/dist-packages/xmlschema/schemas' // Debian's python3-xmlschema
const RFC4287 = join(projectRoot, 'tests/support/rfc4287')

const file = (fileName: string, path: string): XMLFileInfo => {
  if (!existsSync(path)) throw new Error(`${path} is missing: npm ci installs the sitemap package, .ci/run installs Debian's python3-xmlschema`)
  return { fileName, contents: readFileSync(path, 'utf8') }
}

/**
 * sitemap.xsd lets a <url> hold elements of other namespaces only where a schema declares them
 * (a strict wildcard), so the hreflang links need XHTML's. That schema imports the XML
 * namespace's from w3.org; importing a local copy first makes libxml2 skip the remote one.
 * This driver only imports: the rules are all in the three schemas.
 */
const sitemapSchemas = () => ({
  schema: [{ fileName: 'sitemap-and-xhtml.xsd', contents: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:import namespace="http://www.w3.org/XML/1998/namespace" schemaLocation="xml_minimal.xsd"/>
  <xs:import namespace="${SITEMAP_NS}" schemaLocation="sitemap.xsd"/>
  <xs:import namespace="http://www.w3.org/1999/xhtml" schemaLocation="xhtml1-strict.xsd"/>
</xs:schema>` }],
  preload: [
    file('sitemap.xsd', join(sitemapPackage, 'schema/sitemap.xsd')),
    file('xhtml1-strict.xsd', join(XMLSCHEMA, 'XHTML/xhtml1-strict.xsd')),
    file('xml_minimal.xsd', join(XMLSCHEMA, 'XML/xml_minimal.xsd')),
  ],
})

/** What xmllint says is wrong with `contents` against the schema of its kind; none when valid. */
async function judge(kind: 'sitemap' | 'atom', fileName: string, contents: string): Promise<string[]> {
  const xml = { fileName, contents }
  const result = await validateXML(kind === 'sitemap'
    ? { xml, ...sitemapSchemas() }
    : { xml, schema: file('atom.rng', join(RFC4287, 'atom.rng')), extension: 'relaxng' })
  // The driver's skipped remote import is reported as a warning on every run; it is not a finding.
  return result.valid ? [] : result.errors.map((e) => e.rawMessage).filter((m) => m && !m.includes('Schemas parser warning'))
}

/** The namespace and local name of a document's root element. */
function rootOf(xml: string): { ns: string | undefined; name: string } {
  const start = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)([^>]*)>/.exec(xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''))
  if (!start) return { ns: undefined, name: '' }
  const prefix = start[1]?.slice(0, -1)
  const ns = new RegExp(`\\sxmlns${prefix ? `:${prefix}` : ''}="([^"]*)"`).exec(start[3]!)?.[1]
  return { ns, name: start[2]! }
}

let result: BuildResult
const text = (contents: string | Uint8Array) => typeof contents === 'string' ? contents : new TextDecoder().decode(contents)
/** Every XML file the build writes, by path. */
let xmlFiles: Map<string, string>
const ofKind = (ns: string, name: string) => [...xmlFiles].filter(([, xml]) => rootOf(xml).ns === ns && rootOf(xml).name === name)

beforeAll(async () => {
  result = await build({ root: projectRoot, write: false })
  expect(result.ok).toBe(true)
  xmlFiles = new Map(result.files.filter((f) => f.path.endsWith('.xml')).map((f) => [f.path, text(f.contents)]))
})

describe(`sitemaps, by sitemaps.org's sitemap.xsd (npm sitemap ${sitemapVersion}) and W3C's XHTML 1.0 schema`, () => {
  test('every sitemap the build writes is valid, and robots.txt names no other', async () => {
    const sitemaps = ofKind(SITEMAP_NS, 'urlset')
    expect(sitemaps.map(([path]) => path)).toContain('sitemap.xml')
    for (const [path, xml] of sitemaps) expect(await judge('sitemap', path, xml), path).toEqual([])

    const robots = text(result.files.find((f) => f.path === 'robots.txt')!.contents)
    const named = [...robots.matchAll(/^Sitemap: (\S+)$/gm)].map((m) => new URL(m[1]!).pathname.slice(1))
    expect(named.length).toBeGreaterThan(0)
    expect(sitemaps.map(([path]) => path)).toEqual(expect.arrayContaining(named))
  })

  test('the build writes no sitemap index, which would need siteindex.xsd (the sitemap package ships none)', () => {
    expect(ofKind(SITEMAP_NS, 'sitemapindex').map(([path]) => path)).toEqual([])
  })

  test('a sitemap missing a required <loc>, or with an attribute XHTML does not define on a link, is refused', async () => {
    const xml = xmlFiles.get('sitemap.xml')!
    expect(xml).toContain('<xhtml:link ')
    const noLoc = await judge('sitemap', 'no-loc.xml', xml.replace(/<loc>[^<]*<\/loc>/, ''))
    expect(noLoc.join('\n')).toMatch(/This element is not expected\. Expected is \( \{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}loc \)/)
    const badLink = await judge('sitemap', 'bad-link.xml', xml.replace('<xhtml:link ', '<xhtml:link priority="1" '))
    expect(badLink.join('\n')).toMatch(/link.*'priority' is not allowed/)
  })
})

describe('Atom feeds, by the RELAX NG schema of RFC 4287', () => {
  test('the schema is the copy from Debian\'s raptor2 sources, byte for byte', () => {
    const sha256 = (name: string) => createHash('sha256').update(readFileSync(join(RFC4287, name))).digest('hex')
    expect(sha256('atom.rnc')).toBe('3e626c5be661b2ca409a8437ab9046463d0aa02fde6918a8a184311f5929f162')
    expect(sha256('atom.rng')).toBe('d3ca8a72105130026ded0d3fe5ca20dcc3b5d625f9b6feefc0a6650df6e6dc93')
  })

  test('every feed the build writes is valid', async () => {
    const feeds = ofKind(ATOM_NS, 'feed')
    expect(feeds.map(([path]) => path)).toContain('blog/feed.xml')
    for (const [path, xml] of feeds) expect(await judge('atom', path, xml), path).toEqual([])
  })

  test('a feed missing its required <id>, or an entry missing its <updated>, is refused', async () => {
    const xml = xmlFiles.get('blog/feed.xml')!
    const noId = xml.replace(/<id>[^<]*<\/id>\n/, '')
    expect(noId.indexOf('<id>')).toBeGreaterThan(noId.indexOf('<entry>')) // the feed's own id went
    // libxml2 names no missing element inside an interleave (<feed>'s children): only that it failed.
    expect((await judge('atom', 'no-id.xml', noId)).join('\n')).toMatch(/element feed: Relax-NG validity error : Element feed failed to validate content/)
    const noUpdated = xml.replace(/(<entry>[\s\S]*?)<updated>[^<]*<\/updated>\n/, '$1')
    expect(noUpdated.split('<updated>').length).toBe(xml.split('<updated>').length - 1)
    expect((await judge('atom', 'no-updated.xml', noUpdated)).join('\n')).toMatch(/element entry: Relax-NG validity error : Expecting an element updated, got nothing/)
  })
})
