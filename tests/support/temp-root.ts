/**
 * vitest's global set-up: one temporary folder for the whole run. Every copy of the site, output
 * folder and browser profile the suites make (all under os.tmpdir()) goes into it, through TMPDIR,
 * which the test workers, the CLI they start and Chromium inherit; the folder is removed when the
 * run ends, whatever the suites left behind.
 *
 * It also builds the shipped site once and keeps its encoded images and sharing images, which
 * every site copy then starts with (copySite).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, copySite } from './helpers.ts'

export default function setup(): () => void {
  // Each vitest project runs the set-up (vitest.config.ts): the first one's folder serves them all,
  // since folders nested in folders would make Chromium's socket path longer than Linux allows.
  if (process.env.CLINIC_TESTS_ROOT) return () => {}
  const root = mkdtempSync(join(tmpdir(), 'clinic-tests-'))
  // Open to other users, as the system's temporary folder is: one suite runs the build as
  // another user, on a site copy it opened to everyone (tests/content/odd-files.test.ts).
  chmodSync(root, 0o755)
  process.env.TMPDIR = process.env.CLINIC_TESTS_ROOT = root
  keepShippedResults(join(root, 'kept-results'))
  return () => rmSync(root, { recursive: true, force: true })
}

/**
 * The results of the shipped site's build that depend on nothing but their inputs' bytes: the
 * encodings of its images and its sharing images (src/util/kept-files.ts names each by a hash of
 * what it was made from, and by the version of the code and libraries that made it). Encoding them was 1.8 s of the first build of each of the suites' site
 * copies; a copy that changes an image, or draws a new sharing image, still makes its own.
 */
const KEPT_RESULTS = /^(image|og)-/

function keepShippedResults(dir: string): void {
  const site = copySite()
  try {
    execFileSync(process.execPath, [BIN, '--root', site, '--out', join(site, 'dist')], { stdio: 'ignore' })
    const files = join(site, '.clinic/cache/files')
    mkdirSync(dir)
    for (const name of readdirSync(files).filter((f) => KEPT_RESULTS.test(f))) cpSync(join(files, name), join(dir, name))
    process.env.CLINIC_TESTS_KEPT = dir
  } catch {
    // A shipped site that does not build fails the suites that build it; the rest encode afresh.
  } finally {
    rmSync(site, { recursive: true, force: true })
  }
}
