/**
 * Host files: what the build wrote for each host must fit that host's limits. CloudFront Functions
 * carry the site's list of pages and may not exceed 10 KB each: an error when the site is deployed
 * there (`deploy.host: s3-cloudfront`), a warning otherwise. Pure: `sizeOf` gives a built file's bytes.
 */
import { CLOUDFRONT_LIMIT } from '../deploy/cloudfront.ts'
import type { Diagnostic, SiteConfig } from '../types.ts'

export function checkHostFiles(files: string[], sizeOf: (path: string) => number, site: SiteConfig): Diagnostic[] {
  const severity = site.deploy.host === 's3-cloudfront' ? 'error' : 'warning'
  return files.filter((f) => f.startsWith('_cloudfront/') && f.endsWith('.js')).flatMap((file): Diagnostic[] => {
    const bytes = sizeOf(file)
    if (bytes <= CLOUDFRONT_LIMIT) return []
    return [{
      code: 'CloudFrontFunctionTooLarge', severity, file,
      message: `This CloudFront Function is ${(bytes / 1024).toFixed(1)} KB; CloudFront accepts at most ${CLOUDFRONT_LIMIT / 1024} KB.`,
      hint: 'It lists every page of the site. Deploy to a host that serves index.html by itself (Netlify, Cloudflare Pages), or serve the site from S3 website hosting instead of Functions.',
    }]
  })
}
