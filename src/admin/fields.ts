/**
 * The content editor's fields, read off the zod schema that validates a kind of page's front
 * matter: nothing here names a field, so a field added to the schema appears in the editor. Pure.
 *
 *   title: help(text, 'The page's heading…')
 *     -> { name: 'title', label: 'Title', widget: 'string', required: true, hint: 'The page's heading…', i18n: true }
 */
import type { z } from 'zod'
import type { EditorHints } from '../content/schemas/front-matter.ts'
import type { SiteConfig } from '../types.ts'

/** A field of Decap CMS's configuration (https://decapcms.org/docs/widgets/), as plain data. */
export interface EditorField {
  name: string
  label: string
  widget: 'string' | 'text' | 'boolean' | 'number' | 'select' | 'list' | 'datetime' | 'image' | 'markdown'
  required: boolean
  hint?: string
  /** A regular expression the value must match, and what to say when it does not. */
  pattern?: [string, string]
  /** The allowed values. */
  options?: string[]
  /** `true`: each language has its own value; `duplicate`: the translations share the default language's. */
  i18n: true | 'duplicate'
  min?: number
  max?: number
  value_type?: 'int'
  /** A list's item. */
  field?: Omit<EditorField, 'i18n'>
  format?: string
  date_format?: string
  time_format?: boolean
  picker_utc?: boolean
  default?: unknown
}

/** Fields the editor does not show, and why. */
export const NOT_EDITED: Record<string, string> = {
  template: 'the collection an editor works in decides the template',
}

/** Minimal view of zod 4's schema definitions: the parts read here. */
interface Def {
  type: string
  innerType?: Schema
  element?: Schema
  entries?: Record<string, string>
  checks?: { _zod: { def: Check } }[]
  defaultValue?: unknown
  in?: Schema
}
interface Check { check: string; format?: string; pattern?: RegExp; minimum?: number; maximum?: number; error?: (issue: unknown) => unknown }
interface Schema { def: Def; meta: () => (EditorHints & { description?: string }) | undefined }

/** The fields of one kind of page, in the schema's order, each with what the editor needs. */
export function editorFields(schema: z.ZodObject, site: SiteConfig): EditorField[] {
  return Object.entries(schema.shape as unknown as Record<string, Schema>)
    .filter(([name]) => !(name in NOT_EDITED))
    .map(([name, field]) => editorField(name, field, site))
}

function editorField(name: string, schema: Schema, site: SiteConfig): EditorField {
  const hints = schema.meta() ?? {}
  const { inner, required, defaultValue } = unwrap(schema)
  const field: EditorField = {
    name, label: labelOf(name), ...widgetOf(inner, hints, site), required,
    ...(hints.description ? { hint: hints.description } : {}),
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    i18n: 'duplicate',
  }
  // Free text is written in each language; names, dates, choices and numbers are shared.
  field.i18n = isFreeText(field) ? true : 'duplicate'
  return field
}

/** The schema inside `.optional()`, `.default()` and transforms, and whether a value is required. */
function unwrap(schema: Schema): { inner: Schema; required: boolean; defaultValue?: unknown } {
  let inner = schema
  let required = true
  let defaultValue: unknown
  for (;;) {
    const def = inner.def
    if (def.type === 'optional') required = false
    else if (def.type === 'default') { required = false; defaultValue = def.defaultValue }
    else if (def.type === 'pipe' && def.in) { inner = def.in; continue }
    else break
    inner = def.innerType!
  }
  return { inner, required, ...(defaultValue === undefined ? {} : { defaultValue }) }
}

type Widget = Pick<EditorField, 'widget' | 'pattern' | 'options' | 'min' | 'max' | 'value_type' | 'field' | 'format' | 'date_format' | 'time_format' | 'picker_utc'>

function widgetOf(schema: Schema, hints: EditorHints, site: SiteConfig): Widget {
  const def = schema.def
  const checks = (def.checks ?? []).map((c) => c._zod.def)
  if (hints.refersTo === 'doctors') return { widget: 'select', options: site.doctors.map((d) => d.slug) }
  if (hints.format === 'date') return { widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false, picker_utc: true }
  if (hints.format === 'image') return { widget: 'image' }
  switch (def.type) {
    case 'boolean': return { widget: 'boolean' }
    case 'number': return { widget: 'number', value_type: 'int' }
    case 'enum': return { widget: 'select', options: Object.values(def.entries!) }
    case 'array': {
      const item = editorField('item', def.element!, site)
      const min = checks.find((c) => c.check === 'min_length')?.minimum
      const { i18n: _, name: __, ...rest } = item
      return { widget: 'list', field: { ...rest, name: 'item', label: 'Item' }, ...(min ? { min } : {}) }
    }
    default: {
      const regex = checks.find((c) => c.check === 'string_format' && c.format === 'regex')
      const max = checks.find((c) => c.check === 'max_length')
      return {
        widget: hints.long ? 'text' : 'string',
        ...(regex?.pattern ? { pattern: [regex.pattern.source, `This ${messageOf(regex)}.`] } : {}),
        ...(max?.maximum !== undefined && !regex ? { pattern: [`${LENGTH_ONLY}${max.maximum}}$`, `This ${messageOf(max)}.`] } : {}),
      }
    }
  }
}

/** The words of the schema's own message for a check, as the build prints them: "must be …". */
function messageOf(check: Check): string {
  const message = check.error?.({})
  return typeof message === 'string' ? message : 'is not valid'
}

/** Text of the editor's own words: no pattern but a length limit. */
const isFreeText = (field: Omit<EditorField, 'i18n'>): boolean => {
  if (field.widget === 'list') return field.field !== undefined && isFreeText(field.field)
  return ['string', 'text', 'markdown'].includes(field.widget) && (!field.pattern || field.pattern[0].startsWith(LENGTH_ONLY))
}
const LENGTH_ONLY = '^[\\s\\S]{0,'

/** 'reviewedBy' -> 'Reviewed by' */
const labelOf = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase())
  .replace(/ ([A-Z])/g, (_, c: string) => ` ${c.toLowerCase()}`)
