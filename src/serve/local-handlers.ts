/**
 * The request handlers both local servers try before static files. THIS is where the site's own
 * endpoints are mounted. Each is a Node handler `(req, res) => Promise<boolean>` resolving true
 * when it answered.
 */
import { createEnquiryHandler } from '../enquiry/handler.ts'
import type { RequestHandler } from './server.ts'

export interface LocalHandlerOptions {
  /** The site folder (holding content/ and .clinic/). */
  root: string
}

export function localHandlers(options: LocalHandlerOptions): RequestHandler[] {
  return [
    // The contact form's local endpoint: enquiries appended to <root>/.clinic/enquiries.jsonl.
    createEnquiryHandler({ root: options.root }),
  ]
}
