/**
 * The build's only output stage. Writes into a fresh folder beside the output folder and swaps it
 * in only when everything was written, so a failed build leaves the previous site untouched.
 *
 * The fresh folder is rarely made from nothing. The folder a swap replaces is kept as the spare
 * (in `.clinic/`), and the next build starts from it: it already holds the site as it was two
 * builds ago, folders and all, so only the files that differ are written, removed or linked. A
 * file the previous build wrote with the same contents, and that nobody touched since, is
 * hard-linked from the output folder instead of written again, and one kept on disk elsewhere
 * (`OutputFile.source`) is copied rather than read into memory. Files are never changed in place,
 * only replaced, since the folders share them. A rebuild of a large site then costs little more
 * than its changed files: making a thousand folders and removing as many took most of it.
 * The static files are outputs like the rest, each with its source in static/ (staticOutputs).
 */
import { createHash } from 'node:crypto'
import { copyFileSync, type Dirent, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { listFiles } from '../content/read.ts'
import type { OutputFile } from '../types.ts'
import { madeWhenRead } from '../util/memo.ts'
import { survey, type Survey } from './survey.ts'

/** What a build wrote, by path under the output folder: enough to recognise each file later. */
export interface Written {
  dir: string
  files: Map<string, WrittenFile>
  /** What the spare folder holds: the output the last swap replaced. */
  spare?: Written
}

/** Where, under the site folder, the output a swap replaced is kept for the next build. */
export const SPARE_DIR = '.clinic/spare'

/**
 * The spare folder, with what it holds, surveyed from the moment it is named (./survey.ts) when
 * the last output's record says it holds an output to start from.
 */
export interface Spare { dir: string; holds: Promise<Survey | undefined> }
export const spareFolder = (dir: string, last: Written | undefined): Spare =>
  ({ dir, holds: last?.spare ? survey(dir) : Promise.resolve(undefined) })

/** A file's version (OutputFile.version), size and modification time. */
interface WrittenFile { version: string; size: number; mtimeMs: number }

/**
 * The static files `paths` of `dir` as outputs at the same paths, copied from there; `versions`
 * by path, which change when a file does (its size and time: Project.staticVersions).
 */
export const staticOutputs = (dir: string, paths: string[], versions: Record<string, string>): OutputFile[] =>
  paths.map((path) => {
    const source = join(dir, path)
    return madeWhenRead({ path, version: `static ${versions[path]}`, source }, () => readFileSync(source))
  })

/** `spare`: where the replaced output is kept for the next build, on the same disk (none: it is removed). */
export async function writeSite(outDir: string, files: OutputFile[], previous?: Written, spare?: Spare): Promise<Written> {
  const temp = `${outDir}.tmp-${process.pid}`
  const old = `${outDir}.old-${process.pid}`
  const last = previous?.dir === outDir ? previous : undefined
  const versions = files.map((f) => f.version ?? contentHash(f.contents))
  if (last && await untouched(outDir, files, versions, last)) return last
  rmSync(temp, { recursive: true, force: true })
  const job: Job = { temp, outDir, files, versions, last }
  let written: Written
  try {
    const taken = await takeSpare(spare, last, temp)
    written = taken ? await fromSpare(job, taken.files, taken.present).catch(() => fromNothing(job)) : await fromNothing(job)
  } catch (error) {
    rmSync(temp, { recursive: true, force: true })
    throw error
  }
  const replaced = swap(temp, outDir, old)
  if (replaced && spare && last) {
    rmSync(spare.dir, { recursive: true, force: true })
    mkdirSync(dirname(spare.dir), { recursive: true })
    const { spare: _older, ...replacedFiles } = last
    if (takeFolder(old, spare.dir)) return { ...written, spare: replacedFiles }
  }
  if (replaced) removeInBackground(old)
  return written
}

/**
 * What builds stopped while writing left beside the output folder, named with the number of a
 * process that has ended: `.tmp-` (a new site, perhaps half written) and `.gone-` (a replaced
 * one, perhaps half removed) are removed, a whole copy of the site each that no later build
 * would otherwise remove. `.old-` is the previous site whole, there only between the two renames
 * of a swap: when the output folder is missing, the build was stopped between them, and the
 * previous site goes back. A running build's own are left to it. `build` calls it first, before
 * it compares the output folder with its record and before this module writes.
 */
export function recoverStopped(outDir: string): void {
  const prefix = `${basename(outDir)}.`
  let entries: Dirent[]
  try {
    entries = readdirSync(dirname(outDir), { withFileTypes: true })
  } catch {
    return // no folder yet for the output to go in
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(prefix)) continue
    const [kind, pid] = entry.name.slice(prefix.length).split('-')
    if (!['tmp', 'old', 'gone'].includes(kind!) || !/^\d+$/.test(pid ?? '') || running(Number(pid))) continue
    const path = join(dirname(outDir), entry.name)
    if (kind === 'old' && !existsSync(outDir) && takeFolder(path, outDir)) continue
    rmSync(path, { recursive: true, force: true })
  }
}

/** Whether a process of that number is running (one of another user's answers EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Replaced output folders still being removed. Removing a large site's folder takes as long as
 * writing it; it runs on libuv's threads while the build saves its cache, and the build waits
 * for it (`removalsFinished`) before it returns.
 */
const removals: Promise<void>[] = []

function removeInBackground(dir: string): void {
  // Renamed first: a folder named `.old-` is always a whole site (recoverStopped).
  const gone = dir.replace(/\.old-(\d+)$/, '.gone-$1')
  const removal = rm(takeFolder(dir, gone) ? gone : dir, { recursive: true, force: true })
  removal.catch(() => {}) // reported by removalsFinished
  removals.push(removal)
}

/**
 * Replaces a few files of an output folder, each written beside its target and renamed over it: a
 * reader finds the old file or the new one, never part of one, and the spare folder, which shares
 * files with this one, keeps the old. For a patch of pages whose links did not change
 * (src/build/written-site.ts). `previous`: what the folder holds, returned with the new files.
 */
export function replaceFiles(outDir: string, previous: Written['files'], files: { path: string; contents: string; version: string }[]): Written['files'] {
  const written = new Map(previous)
  for (const file of files) {
    const target = join(outDir, file.path)
    writeFileSync(`${target}.tmp-${process.pid}`, file.contents)
    renameSync(`${target}.tmp-${process.pid}`, target)
    const { size, mtimeMs } = statSync(target)
    written.set(file.path, { version: file.version, size, mtimeMs })
  }
  return written
}

/** Waits for the removals writeSite left running; rejects if one failed. */
export async function removalsFinished(): Promise<void> {
  await Promise.all(removals.splice(0))
}

/** The version of a file that comes without one. */
export const contentHash = (contents: string | Uint8Array): string => createHash('sha1').update(contents).digest('base64url')

interface Job {
  temp: string
  outDir: string
  files: OutputFile[]
  versions: string[]
  /** What the output folder holds, when known. */
  last: Written | undefined
}

async function fromNothing(job: Job): Promise<Written> {
  rmSync(job.temp, { recursive: true, force: true })
  mkdirSync(job.temp, { recursive: true })
  return fill(job, new Map(), new Map())
}

/** The spare folder moved to `temp`, with what it holds, when it holds the last output but one of this folder. */
async function takeSpare(spare: Spare | undefined, last: Written | undefined, temp: string): Promise<{ files: Written; present: Survey } | undefined> {
  const files = last?.spare
  if (!spare || !files || files.dir !== last.dir) return undefined
  // The survey is finished before the folder moves: it lists the folder where it is.
  const present = await spare.holds
  return present && takeFolder(spare.dir, temp) ? { files, present } : undefined
}

/** The spare folder, now at `job.temp` and holding `present`, brought to this build's files. */
async function fromSpare(job: Job, spare: Written, present: Survey): Promise<Written> {
  const wanted = new Set(job.files.map((f) => f.path))
  // Every folder the spare holds, taken before its unwanted files go: a folder emptied now must go too.
  const folders = [...new Set([...present.keys()].map(dirname))]
  for (const path of present.keys()) if (!wanted.has(path)) { unlinkSync(join(job.temp, path)); present.delete(path) }
  removeEmptyFolders(job.temp, folders, [...new Set([...wanted].map(dirname))])
  return fill(job, spare.files, present)
}

/** Writes `job.files` into `job.temp`, which holds `present` (as `recorded` says, where its sizes and times are the recorded ones). */
async function fill(job: Job, recorded: Map<string, WrittenFile>, present: Survey): Promise<Written> {
  const { temp, outDir, files, versions, last } = job
  const written: Written = { dir: outDir, files: new Map() }
  const folders = new Set([...present.keys()].map((p) => dirname(join(temp, p))))
  const replace = (path: string) => {
    const target = join(temp, path)
    if (present.has(path)) unlinkSync(target)
    else if (!folders.has(dirname(target))) { mkdirSync(dirname(target), { recursive: true }); folders.add(dirname(target)) }
    return target
  }
  files.forEach((file, i) => {
    const version = versions[i]!
    const [kept, found] = [recorded.get(file.path), present.get(file.path)]
    if (kept?.version === version && found?.size === kept.size && found.mtimeMs === kept.mtimeMs) {
      written.files.set(file.path, kept)
      return
    }
    const target = replace(file.path)
    const before = last?.files.get(file.path)
    if (before?.version === version && linked(join(outDir, file.path), target, before)) {
      written.files.set(file.path, before)
      return
    }
    if (!copied(file.source, target)) writeFileSync(target, file.contents)
    const { size, mtimeMs } = statSync(target)
    written.files.set(file.path, { version, size, mtimeMs })
  })
  return written
}

/** Whether `source` was copied to `target`; when it is gone, the file's contents say why. */
function copied(source: string | undefined, target: string): boolean {
  if (!source) return false
  try {
    copyFileSync(source, target)
    return true
  } catch {
    return false
  }
}

/**
 * True when the output folder holds exactly what this build would write: the same files as the
 * last build wrote, each with the same contents and untouched since, and nothing else. Then there
 * is nothing to write.
 */
async function untouched(outDir: string, files: OutputFile[], versions: string[], previous: Written): Promise<boolean> {
  if (previous.dir !== outDir || previous.files.size !== files.length) return false
  if (!files.every((f, i) => previous.files.get(f.path)?.version === versions[i])) return false
  return holdsExactly(outDir, previous.files)
}

/** Whether `outDir` holds `files` as they were recorded (each with its size and modification time), and nothing else. */
export async function holdsExactly(outDir: string, files: ReadonlyMap<string, { size: number; mtimeMs: number }>): Promise<boolean> {
  const present = await listFiles(outDir)
  if (present.length !== files.size || present.some((p) => !files.has(p))) return false
  return [...files].every(([path, was]) => isUnchanged(join(outDir, path), was))
}

// The calls below are synchronous: for a thousand small files, a third of the time fs/promises takes.

/** Whether `path` is still the file recorded. */
function isUnchanged(path: string, was: { size: number; mtimeMs: number }): boolean {
  const now = statSync(path, { throwIfNoEntry: false })
  return now?.size === was.size && now.mtimeMs === was.mtimeMs
}

/** Links `from` to `to` if `from` is still the file the last build wrote; false when it cannot. */
function linked(from: string, to: string, was: { size: number; mtimeMs: number }): boolean {
  if (!isUnchanged(from, was)) return false
  try {
    linkSync(from, to)
    return true
  } catch {
    return false
  }
}

/** Removes the folders of `folders` (under `root`, with their parents) that no `needed` folder is in, deepest first. */
function removeEmptyFolders(root: string, folders: string[], needed: string[]): void {
  const withParents = (folder: string) => {
    const all: string[] = []
    for (; folder !== '.'; folder = dirname(folder)) all.push(folder)
    return all
  }
  const keep = new Set(needed.flatMap(withParents))
  const gone = [...new Set(folders.flatMap(withParents))].filter((f) => !keep.has(f)).sort((a, b) => b.length - a.length)
  for (const folder of gone) rmdirSync(join(root, folder)) // empty by now: every file not wanted is gone
}

/** Moves a folder; false when it cannot (it is missing, or on another disk). */
function takeFolder(from: string, to: string): boolean {
  try {
    renameSync(from, to)
    return true
  } catch {
    return false
  }
}

/** Replaces `target` by `fresh`, the replaced folder left at `old`; if the second rename fails, the previous output is put back. */
function swap(fresh: string, target: string, old: string): boolean {
  let hadPrevious = true
  try {
    renameSync(target, old)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    hadPrevious = false
  }
  try {
    renameSync(fresh, target)
  } catch (error) {
    if (hadPrevious) renameSync(old, target)
    throw error
  }
  return hadPrevious
}
