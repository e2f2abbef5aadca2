/**
 * The enquiries file: one JSON line per enquiry, appended. Appends to one file are queued in this
 * process, each line written whole by one appendFile, so concurrent submissions never interleave
 * or lose a line. The folder gets a .gitignore, since the file holds personal data.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** Relative to the site folder. */
export const ENQUIRIES_FILE = '.clinic/enquiries.jsonl'

const queues = new Map<string, Promise<void>>()

export function enquiriesFile(root: string): string {
  return join(root, ENQUIRIES_FILE)
}

/** Appends `record` as one line; resolves once it is on disk, rejects when it could not be written. */
export function appendRecord(file: string, record: object): Promise<void> {
  const line = `${JSON.stringify(record)}\n` // JSON escapes newlines inside strings: one record, one line
  const previous = queues.get(file) ?? Promise.resolve()
  const written = previous.catch(() => {}).then(async () => {
    await ensureFolder(dirname(file))
    await appendFile(file, line, { encoding: 'utf8', mode: 0o600 })
  })
  queues.set(file, written)
  const forget = () => { if (queues.get(file) === written) queues.delete(file) }
  written.then(forget, forget)
  return written
}

async function ensureFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, '.gitignore'), '# Enquiries and caches: personal data and build output, never committed.\n*\n', { flag: 'wx' })
    .catch((error: NodeJS.ErrnoException) => { if (error.code !== 'EEXIST') throw error })
}
