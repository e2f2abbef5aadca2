/**
 * zod compiles each object schema into a function with `new Function` when it can, and finds out
 * whether it can by trying it: under the editor's policy (no 'unsafe-eval', src/admin/policy.ts)
 * the try fails and the browser reports a violation. The editor parses only the page being
 * edited, so the interpreted parser is fast enough. Imported first by preview.tsx, the chunk that
 * holds the schemas, so that it runs before any schema is used.
 */
import { z } from 'zod'

z.config({ jitless: true })
