/** node:module: `createRequire` for the libraries src/util/on-first-use.ts loads on first use, bundled here. */
import grayMatter from 'gray-matter'
import * as yaml from 'yaml'
import * as zod from 'zod'
import * as htmlparser2 from 'htmlparser2'

const bundled: Record<string, unknown> = { 'gray-matter': grayMatter, yaml, zod, htmlparser2 }

export function createRequire(): (specifier: string) => unknown {
  return (specifier) => {
    if (specifier in bundled) return bundled[specifier]
    throw new Error(`${specifier} is not part of the content editor`)
  }
}
