// The public API of clinic-build; the CLI is a thin layer over it.
export { build } from './build/build.ts'
export { emptyCache, type BuildCache } from './build/cache.ts'
export type { BuildOptions, BuildResult } from './build/build.ts'
export type { Diagnostic, OutputFile, Route, RouteTable } from './types.ts'
