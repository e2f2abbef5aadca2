/**
 * The request handlers both local servers try before static files. THIS is where the site's own
 * endpoints are mounted (the contact form's local endpoint answers here when no form endpoint is
 * configured). Each is a Node handler `(req, res) => Promise<boolean>` resolving true when it answered.
 */
import type { RequestHandler } from './server.ts'

export interface LocalHandlerOptions {
  /** The site folder (holding content/ and .clinic/). */
  root: string
}

export function localHandlers(_options: LocalHandlerOptions): RequestHandler[] {
  return []
}
