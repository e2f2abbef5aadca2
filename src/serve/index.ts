/** The local servers: `serve` (a built folder, CDN-like) and, through the same server, `dev`. */
export { startServer } from './server.ts'
export type { RequestHandler, RunningServer, ServerOptions } from './server.ts'
export { loadHeaderRules } from './netlify-headers.ts'
export { serve } from './serve.ts'
