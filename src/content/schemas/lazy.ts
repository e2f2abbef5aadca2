import type { z } from 'zod'
import { onFirstUse } from '../../util/on-first-use.ts'

/** zod takes about 50 ms to load, which a build that finds all its sources in the cache never needs. */
const zod = onFirstUse<{ z: typeof z }>('zod')

/** A schema made on first use, with zod required then. */
export function lazySchema<S>(make: (zod: typeof z) => S): () => S {
  let schema: S | undefined
  return () => (schema ??= make(zod().z))
}
