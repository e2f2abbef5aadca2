/**
 * `clinic-build serve` answers as Cloudflare Pages does (tests/deploy/hosts.browser.test.ts runs
 * the same checks on both); where the configured host answers otherwise, its start-up says how.
 * CloudFront's functions answer as they are built (src/deploy/cloudfront.ts; tests/deploy/cloudfront.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSite } from '../content/site.ts'
import type { SiteConfig } from '../types.ts'

const DIFFERENCES: Partial<Record<SiteConfig['deploy']['host'], string>> = {
  netlify: 'Netlify redirects /x to /x/ with 301 (here 308) and answers /x/index.html with the page (here a redirect to /x/); pages, 404 pages and headers are the same.',
  's3-cloudfront': 'CloudFront\'s functions redirect /x and /x/index.html to /x/ with 301 (here 308); pages, 404 pages and headers are the same.',
  'github-pages': 'GitHub Pages sends none of the headers of _headers (the <meta> policy of each page applies), redirects /x to /x/ with 301 (here 308), answers /x/index.html with the page (here a redirect), and every missing address with the root 404.html, whose script shows the language\'s own 404 page.',
}

/** What the host named by `<root>/content/site.yaml` answers differently, if anything; nothing when the file cannot be read. */
export function hostDifferences(root: string): string | undefined {
  const file = join(root, 'content/site.yaml')
  if (!existsSync(file)) return undefined
  const { site } = parseSite({ path: 'content/site.yaml', text: readFileSync(file, 'utf8') })
  return site && DIFFERENCES[site.deploy.host]
}
