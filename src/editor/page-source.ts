/**
 * What an editor has typed, as the Markdown file the backend will save: its front matter in YAML,
 * then its text. The preview and the advertising rules read this file, as the build and
 * `clinic-build check` will read the saved one. Pure.
 */
import { stringify } from 'yaml'

/** An entry's values in one language, as Decap holds them (the text under `body`). */
export type EntryData = Record<string, unknown> & { body?: unknown }

export function markdownFile(data: EntryData): string {
  const { body, ...fields } = data
  const front = Object.fromEntries(Object.entries(fields).filter(([, value]) => !isEmpty(value)).map(([name, value]) => [name, plain(value)]))
  const yaml = stringify(front, { lineWidth: 0 })
  // The build's reader (gray-matter) drops the line break before the closing ---: a last value
  // that ends in blank lines (YAML's |+) keeps them all only with one line break more.
  return `---\n${yaml}${yaml.endsWith('\n\n') ? '\n' : ''}---\n${typeof body === 'string' ? body : ''}\n`
}

/** Decap keeps an untouched optional field as '' or null, and saves it so: the build would read '' as a value. */
const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

/** A date picker's value is a Date; the site writes dates YYYY-MM-DD. */
const plain = (value: unknown): unknown => (value instanceof Date ? value.toISOString().slice(0, 10) : value)

/** A file name from a title, as Decap makes one before the first save. Example: 'Ear Surgery' -> 'ear-surgery' */
export const slugOf = (title: unknown) => (typeof title === 'string' ? title : '').toLowerCase().normalize('NFKD')
  .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'new-page'
