/**
 * The build's only output stage. Writes into a fresh folder beside the output folder and swaps it
 * in only when everything was written, so a failed build leaves the previous site untouched.
 */
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { OutputFile } from './types.ts'

export async function writeSite(outDir: string, files: OutputFile[], staticDir: string | undefined): Promise<void> {
  const temp = `${outDir}.tmp-${process.pid}`
  const old = `${outDir}.old-${process.pid}`
  await rm(temp, { recursive: true, force: true })
  try {
    await mkdir(temp, { recursive: true })
    if (staticDir) await cp(staticDir, temp, { recursive: true })
    const dirs = new Set(files.map((f) => dirname(join(temp, f.path))))
    for (const dir of dirs) await mkdir(dir, { recursive: true })
    await inBatches(files, 64, (f) => writeFile(join(temp, f.path), f.contents))
  } catch (error) {
    await rm(temp, { recursive: true, force: true })
    throw error
  }
  await swap(temp, outDir, old)
}

/** Replaces `target` by `fresh`; if the second rename fails, the previous output is put back. */
async function swap(fresh: string, target: string, old: string): Promise<void> {
  let hadPrevious = true
  try {
    await rename(target, old)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    hadPrevious = false
  }
  try {
    await rename(fresh, target)
  } catch (error) {
    if (hadPrevious) await rename(old, target)
    throw error
  }
  if (hadPrevious) await rm(old, { recursive: true, force: true })
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run))
}
