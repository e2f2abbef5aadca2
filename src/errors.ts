/**
 * Every problem an editor or developer can cause, with a permanent name, a message that says what
 * happened and a hint that says what to do. The error catalogue of docs/editors.md documents each entry.
 */
import type { Diagnostic } from './types.ts'

export interface Location { file?: string; line?: number; column?: number }

const entry = <A extends unknown[]>(e: { message: (...args: A) => string; hint: string }) => e

export const catalogue = {
  NotUtf8: entry({
    message: (byte: string) => `The file is not UTF-8 text: byte ${byte} here belongs to another encoding (such as GBK, Big5 or Windows-1252).`,
    hint: 'Save the file again with the encoding "UTF-8" (in the editor\'s Save As dialog, or its status bar); UTF-16 is read too.',
  }),
  Unreadable: entry({
    message: (why: string) => `The file could not be read: ${why}.`,
    hint: 'Check that the file exists and that you may read it; a link must lead to a file that exists.',
  }),
  LinkedFolder: entry({
    message: () => 'This is a link to a folder, which the build does not follow (links can lead in a circle); the files in it are left out.',
    hint: 'Move or copy the folder into content/ instead of linking to it.',
  }),
  EmptyPage: entry({
    message: () => 'The page is empty.',
    hint: 'A page starts with its front matter between two --- lines (title and description at least), then its text; see "Front matter" in docs/editors.md.',
  }),
  MissingFrontMatter: entry({
    message: () => 'The page has no front matter: it must start with a line of three dashes (---), then its fields, then another line ---.',
    hint: 'Start the file with a line ---, then "title: …" and "description: …" on lines of their own, then a line ---; see "Front matter" in docs/editors.md.',
  }),
  InvalidPageName: entry({
    message: (name: string, url: string) => `"${name}" would become part of the page's URL (${url}); URLs use lower-case letters, digits and hyphens.`,
    hint: 'Rename the file or folder in lower-case letters, digits and hyphens (the translation keeps the same name), or give the page a "slug" in its front matter.',
  }),
  InvalidYaml: entry({
    message: (detail: string) => `YAML could not be parsed: ${detail}`,
    hint: 'Check the indentation, and quote values that contain ": " or start with a special character.',
  }),
  ControlCharacter: entry({
    message: (code: string) => `The text holds the control character ${code}: it is invisible, and web pages, feeds and sharing images cannot hold it.`,
    hint: 'Delete it (editors show it as a box, a "?" or a code such as <0x13>, if at all); retype the text around it if need be. In double quotes it may be written as an escape such as \\x13.',
  }),
  InvalidFrontMatter: entry({
    message: (field: string, problem: string) => `Front matter field "${field}" ${problem}.`,
    hint: 'See "Front matter" in docs/editors.md for the fields each kind of page takes.',
  }),
  InvalidSiteConfig: entry({
    message: (field: string, problem: string) => `Site configuration field "${field}" ${problem}.`,
    hint: 'See "Site configuration" in docs/editors.md for every field.',
  }),
  MissingFile: entry({
    message: (what: string) => `${what} is missing.`,
    hint: 'Check --root: it must point at the site folder that holds content/, locales/ and static/.',
  }),
  UnknownLocale: entry({
    message: (folder: string, codes: string) => `Folder "${folder}" is not a configured locale (${codes}).`,
    hint: 'Content lives in content/<locale>/; add the locale to "locales" in content/site.yaml or move the file.',
  }),
  UnknownDoctor: entry({
    message: (field: string, slug: string, known: string) => `Front matter field "${field}" names "${slug}", which is not a doctor (${known}).`,
    hint: 'Use the slug of a doctor listed under "doctors" in content/site.yaml.',
  }),
  MissingTranslation: entry({
    message: (expected: string) => `This page has no translation: ${expected} is missing.`,
    hint: 'Add the translated file with the same name, or mark it draft: true until the translation is ready.',
  }),
  SingleLocaleSection: entry({
    message: (section: string, locale: string) => `The "${section}" section is published in "${locale}" only.`,
    hint: 'Move the file under content/<that locale>/, or change "singleLocaleSections" in content/site.yaml.',
  }),
  MissingMessage: entry({
    message: (key: string, definedIn: string) => `Message "${key}" is defined in ${definedIn} but missing here.`,
    hint: 'Add the key to this locale file; every locale defines the same messages.',
  }),
  UnknownMessage: entry({
    message: (key: string) => `The template asks for message "${key}", which no locale file defines.`,
    hint: 'Add the key to every file in locales/, or correct its name in the template.',
  }),
  DuplicateUrl: entry({
    message: (url: string, files: string) => `${url} is produced by more than one file: ${files}.`,
    hint: 'Rename or remove one of them, or give one a different "slug" in its front matter.',
  }),
  BrokenLink: entry({
    message: (url: string) => `Link to ${url}, but no page has that URL.`,
    hint: 'Internal links are root-relative and end with "/", e.g. /services/rhinoplasty/ or /cn/contact/.',
  }),
  MissingAltText: entry({
    message: (src: string) => `Image ${src} has no alt text.`,
    hint: 'Describe the image in the brackets: ![A diagram of the eyelid](/images/eyelid.svg).',
  }),
  InvalidStructuredData: entry({
    message: (release: string, finding: string) => `The page's structured data (JSON-LD) is not what schema.org ${release} defines: ${finding}.`,
    hint: 'Search engines ignore or reject such data. It is written by the templates (src/seo/structured-data.ts) from front matter and site.yaml: correct the template, or the field it comes from.',
  }),
  UnsafeMarkup: entry({
    message: (what: string) => what,
    hint: 'Markdown keeps simple HTML only (such as <sup>, <abbr>, <br>) and http, https, mailto and tel links; scripts, styles, frames, forms, event handlers and javascript: or data: URLs are removed. Write it in Markdown instead.',
  }),
  MarkdownTooDeep: entry({
    message: (depth: number, limit: number) => `Lists or quotes are nested ${depth} deep here; the build reads at most ${limit} levels, as deeper text takes the Markdown reader minutes or more.`,
    hint: 'Often a paste from a word processor or an e-mail: remove the extra "> " or list markers at the starts of the lines (or indent the list less), so that each list or quote sits in at most a few others.',
  }),
  MarkdownTooComplex: entry({
    message: (what: string) => `The text is refused: ${what}.`,
    hint: 'Often a paste from a word processor or a program\'s output: remove the stray marks, split the paragraph with blank lines, or put the pasted text between two lines of three backticks (```) so that it shows as it is.',
  }),
  MarkdownTooSlow: entry({
    message: (seconds: number) => `The text took longer than ${seconds} s to read, the time limit for one page, and was stopped.`,
    hint: 'Look for text pasted from elsewhere: many * _ [ ` or > marks, or lists inside lists; remove them or put the text between two lines of three backticks (```). A page that is merely very long may be given more time with "bodyTimeLimit" in content/site.yaml.',
  }),
  MissingImage: entry({
    message: (src: string, expected: string) => `Image ${src} is not ${expected}.`,
    hint: 'Keep the image (JPEG, PNG, WebP, GIF or SVG) beside the Markdown file under content/ and write its path relative to that file, e.g. eyelid.svg or ./images/eyelid.svg; or put it under static/ and write its path from the site root, e.g. /images/eyelid.svg. Names are case-sensitive.',
  }),
  UnsizedImage: entry({
    message: (src: string, why: string) => `Image ${src} ${why}, so its width and height are unknown and the text after it moves when it arrives.`,
    hint: 'Save the image as JPEG, PNG, WebP, GIF or SVG beside the Markdown file and write its path relative to that file: ![A drawing of the eyelid](eyelid.svg). An SVG needs width and height attributes or a viewBox.',
  }),
  OversizedImage: entry({
    message: (size: string) => `Image is ${size}; sources above 4000 px or 10 MB slow every build and gain nothing on screen.`,
    hint: 'Resize it to at most 3200 px on its longer side before committing it; the build makes the smaller sizes.',
  }),
  StaticFileReplaced: entry({
    message: (made: string) => `The build writes ${made} itself, so this file is left out of the site.`,
    hint: 'Rename or move the file under static/, or remove it: what the build writes (its pages, sitemap.xml, robots.txt, assets/, og/, admin/ and the host\'s files such as _headers) is never replaced.',
  }),
  AdminUrlTaken: entry({
    message: (url: string) => `This page's address ${url} is where the content editor lives (/admin/).`,
    hint: 'Rename the file or give it another "slug"; or, if the site needs no content editor, set "admin: false" in content/site.yaml.',
  }),
  UnsafeOutDir: entry({
    message: (out: string, why: string) => `Refusing to write the site to ${out}: ${why}.`,
    hint: 'Choose an output folder of its own, such as dist.',
  }),
} as const

export type Code = keyof typeof catalogue

/** Builds a diagnostic from the catalogue. */
export function problem<C extends Code>(
  code: C,
  args: Parameters<(typeof catalogue)[C]['message']>,
  at: Location = {},
  severity: Diagnostic['severity'] = 'error',
): Diagnostic {
  const e = catalogue[code] as { message: (...a: unknown[]) => string; hint: string }
  return { code, severity, message: e.message(...args), hint: e.hint, ...at }
}

/**
 * One diagnostic as the terminal shows it.
 *   content/cn/services/ear.md:4:8  InvalidFrontMatter  Front matter field "title" must be text, got a number.
 *     hint: See "Front matter" in docs/editors.md …
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? [d.file, d.line, d.line && d.column].filter(Boolean).join(':') : 'clinic-build'
  const head = `${where}  ${d.severity === 'warning' ? 'warning ' : ''}${d.code}  ${d.message}`
  return d.hint ? `${head}\n  hint: ${d.hint}` : head
}

/** A build that stopped on content errors; the CLI prints the diagnostics and exits 1. */
export class BuildFailed extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    const n = diagnostics.filter((d) => d.severity === 'error').length
    super(`${n} error${n === 1 ? '' : 's'} in the site's files; nothing was written.`)
  }
}

/** A mistake in how the CLI was called (exit 2 for usage, 1 for a refused option value). */
export class UsageError extends Error {}

/** A bug in clinic-build itself (never a mistake in the site), with the file it was working on when known. */
export class InternalError extends Error {
  constructor(readonly file: string | undefined, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause })
  }
}

/** Runs `work` on one file: a bug met there comes out as an InternalError naming the file. */
export function whileProcessing<T>(file: string, work: () => T): T {
  try {
    const result = work()
    return result instanceof Promise ? result.catch((error: unknown) => { throw blame(file, error) }) as T : result
  } catch (error) {
    throw blame(file, error)
  }
}

const blame = (file: string, error: unknown) => (error instanceof InternalError || error instanceof UsageError ? error : new InternalError(file, error))

/**
 * An internal error as the terminal shows it: one line saying what broke, where, and what to do;
 * the stack trace only with --debug.
 */
export function formatInternalError(error: unknown, debug: boolean): string {
  const file = error instanceof InternalError ? error.file : undefined
  const message = error instanceof Error ? error.message : String(error)
  const line = `clinic-build: internal error${file ? ` while processing ${file}` : ''}: ${message}. `
    + 'This is a bug in clinic-build, not a mistake in the site: please report it to its developers with the output of the same command run with --debug.'
  if (!debug) return line
  const stacks: string[] = []
  for (let e: unknown = error; e instanceof Error; e = e.cause) stacks.push(e.stack ?? e.message)
  return `${line}\n\n${stacks.join('\n\ncaused by: ')}`
}
