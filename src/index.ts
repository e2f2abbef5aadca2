// The public API of clinic-build; the CLI is a thin layer over it.
export { build } from './build.ts'
export { emptyCache, type BuildCache } from './cache.ts'
export type { BuildOptions, BuildResult } from './build.ts'
export type { Diagnostic, OutputFile, Route, RouteTable } from './types.ts'
