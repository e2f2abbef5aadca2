/**
 * Host files: what the build wrote for each host must fit that host's documented limits: an error
 * for the host the site is deployed to (`deploy.host`), a warning for the others. Pure: `sizeOf`
 * and `read` give a built file's bytes and text.
 */
import type { Diagnostic, SiteConfig } from '../types.ts'
import { checkCloudFront } from './hosts-cloudfront.ts'

export function checkHostFiles(files: string[], sizeOf: (path: string) => number, site: SiteConfig, read: (path: string) => string): Diagnostic[] {
  return checkCloudFront(files, sizeOf, read, site.deploy.host === 's3-cloudfront' ? 'error' : 'warning')
}
