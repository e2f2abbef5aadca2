// The folders of src/ and templates/ import downward only, and nothing imports in a circle, type
// imports included: dependency-cruiser reads the imports, the layers below become its rules.
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser'
import extractTsConfig from 'dependency-cruiser/config-utl/extract-ts-config'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'

const projectRoot = join(import.meta.dirname, '..')

/**
 * The build's folders from the bottom up; each may import from its own layer and the ones before it.
 * The schemas come before types.ts because it names their types; assets before content because
 * reading the site asks which files are images; templates sit between what a page receives
 * (page/, seo/) and the renderer that calls them. The content editor's browser code (editor/)
 * comes last: it runs the templates and check's advertising rules, and nothing imports it.
 */
export const layers: string[][] = [
  ['src/util/', 'src/shared/'],
  ['src/content/schemas/'],
  ['src/types.ts', 'src/errors.ts'],
  ['src/assets/'],
  ['src/content/'],
  ['src/markdown/'],
  ['src/routes/'],
  ['src/enquiry/'],
  ['src/page/'],
  ['src/seo/'],
  ['templates/'],
  ['src/render/'],
  ['src/deploy/'],
  ['src/admin/'],
  ['src/build/'],
  ['src/serve/'],
  ['src/check/'],
  ['src/cli.ts', 'src/index.ts'],
  ['src/editor/'],
]

const pattern = (paths: string[]) => `^(${paths.map((p) => p.replaceAll('.', '\\.')).join('|')})`

/** One rule per layer: nothing in it imports from a layer above it. Browser code stays apart. */
function rules(): IForbiddenRuleType[] {
  const layered = layers.slice(0, -1).map((layer, i): IForbiddenRuleType => ({
    name: `layer-${i}-imports-upward`,
    comment: `${layer.join(', ')} may not import from ${layers.slice(i + 1).flat().join(', ')}`,
    severity: 'error',
    // A folder inside a higher one (content/schemas/ in content/) is still below it.
    from: { path: pattern(layer) },
    to: { path: pattern(layers.slice(i + 1).flat()), pathNot: pattern(layers.slice(0, i + 1).flat()) },
  }))
  return [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...layered,
    { name: 'client-imports-client-and-shared', severity: 'error', from: { path: '^src/client/' }, to: { path: '^(src|templates)/', pathNot: '^src/(client|shared)/' } },
    { name: 'only-client-imports-client', severity: 'error', from: { pathNot: '^src/client/' }, to: { path: '^src/client/' } },
  ]
}

let result: ICruiseResult | undefined
async function cruised(): Promise<ICruiseResult> {
  if (result) return result
  const cwd = process.cwd()
  process.chdir(projectRoot) // dependency-cruiser reports paths relative to the working folder
  try {
    const tsConfig = extractTsConfig(join(projectRoot, 'tsconfig.json'))
    const { output } = await cruise(['src', 'templates'], {
      tsPreCompilationDeps: true, // type-only imports count: a circle of types is a circle of ideas
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      validate: true,
      ruleSet: { forbidden: rules() },
    }, {}, { tsConfig })
    result = output as ICruiseResult
    return result
  } finally {
    process.chdir(cwd)
  }
}

const violations = async (rule: (name: string) => boolean) => (await cruised()).summary.violations
  .filter((v) => rule(v.rule.name))
  .map((v) => [v.from, ...(v.cycle ? v.cycle.map((c) => c.name) : [v.to])].join(' -> '))

describe('the folders of src/ and templates/', () => {
  test('every source file is read, the templates and the browser code included', async () => {
    const sources = (await cruised()).modules.map((m) => m.source)
    for (const file of ['src/cli.ts', 'src/build/build.ts', 'src/render/render.tsx', 'templates/Layout.tsx', 'src/client/main.ts', 'src/content/schemas/site.ts']) {
      expect(sources).toContain(file)
    }
    expect(sources.filter((s) => s.startsWith('src/')).length).toBeGreaterThan(100)
  })

  test('no import cycle, type-only imports included', async () => {
    expect(await violations((name) => name === 'no-circular')).toEqual([])
  })

  test('no import runs against the order of the folders', async () => {
    expect(await violations((name) => name.startsWith('layer-'))).toEqual([])
  })

  test('browser code imports only browser code and src/shared/, and only browser code imports it', async () => {
    expect(await violations((name) => name.includes('client'))).toEqual([])
  })

  test('every folder of src/ has its place in the order', async () => {
    const placed = [...layers.flat(), 'src/client/']
    const unplaced = (await cruised()).modules.map((m) => m.source)
      .filter((s) => /^(src|templates)\//.test(s) && !placed.some((p) => s.startsWith(p) || s === p))
    expect(unplaced).toEqual([])
  })
})
