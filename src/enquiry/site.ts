/**
 * What the local endpoint needs from the site folder: the configuration (locales, doctors,
 * contact numbers), each locale's messages, and the procedures the form offers (service pages).
 * Read with the build's own parsers, so the endpoint accepts exactly what the built form offers.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { formatDiagnostic } from '../errors.ts'
import { loadMessages } from '../content/messages.ts'
import { parseDocs } from '../content/parse.ts'
import { listFiles, readSource } from '../content/read.ts'
import type { Choices } from '../shared/enquiry.ts'
import { parseSite } from '../content/site.ts'
import type { Messages, SiteConfig } from '../types.ts'

export interface EnquirySite {
  site: SiteConfig
  messages: Record<string, Messages>
  choices: Choices
}

export type Loaded = { ok: true; value: EnquirySite } | { ok: false; problems: string[] }

export async function loadEnquirySite(root: string): Promise<Loaded> {
  const siteFile = readSource(root, 'content/site.yaml')
  if (siteFile.problem) return { ok: false, problems: [formatDiagnostic(siteFile.problem)] }
  const { site, diagnostics } = parseSite(siteFile)
  if (!site) return { ok: false, problems: diagnostics.map(formatDiagnostic) }

  // A missing message file is left out, for loadMessages to name the locale that needs it.
  const localeFiles = site.locales.map((l) => readSource(root, `locales/${l.messages}.yaml`)).filter((f) => f.problem?.code !== 'MissingFile')
  const loaded = loadMessages(localeFiles, site)
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error')
  if (errors.length > 0) return { ok: false, problems: errors.map(formatDiagnostic) }

  const servicePaths = (await Promise.all(site.locales.map(async (l) =>
    (await listFiles(join(root, 'content', l.code, 'services'))).filter((f) => f.endsWith('.md')).map((f) => `content/${l.code}/services/${f}`)))).flat()
  const serviceFiles = servicePaths.map((p) => readSource(root, p))
  const services = parseDocs(serviceFiles, site).docs.filter((d) => d.template === 'service' && !d.data.draft)
  const procedures = [...new Set(services.map((d) => d.path.split('/').filter(Boolean).at(-1)!))]
  return { ok: true, value: { site, messages: loaded.messages, choices: { procedures, doctors: site.doctors.map((d) => d.slug) } } }
}

/**
 * The site, read again when the configuration or a message file changes (`dev` keeps running
 * while they are edited); otherwise from memory.
 */
export function siteLoader(root: string): () => Promise<Loaded> {
  let cached: { signature: string; loaded: Promise<Loaded> } | undefined
  return async () => {
    const signature = await signatureOf(root)
    if (cached?.signature !== signature) cached = { signature, loaded: loadEnquirySite(root) }
    return cached.loaded
  }
}

async function signatureOf(root: string): Promise<string> {
  const files = ['content/site.yaml', ...(await listFiles(join(root, 'locales'))).map((f) => `locales/${f}`)]
  const times = await Promise.all(files.map((f) => stat(join(root, f)).then((s) => s.mtimeMs, () => 0)))
  return files.map((f, i) => `${f}@${times[i]}`).join('|')
}
