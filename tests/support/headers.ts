/**
 * A build's `_headers` read back as written, for tests that hold a host's answers to it: each
 * rule's path and headers, in file order. Cloudflare's detach lines (`! Name`) set no header of
 * their own and are left out. How hosts apply the rules is each host model's business.
 */
import type { HeaderRule } from '../../src/deploy/static-hosts.ts'

export function writtenHeaderRules(text: string): HeaderRule[] {
  const rules: HeaderRule[] = []
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#') || line.trim().startsWith('!')) continue
    if (!/^\s/.test(line)) rules.push({ path: line.trim(), headers: {} })
    else { const [name, ...value] = line.trim().split(':'); rules.at(-1)!.headers[name!] = value.join(':').trim() }
  }
  return rules
}
