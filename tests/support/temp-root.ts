/**
 * vitest's global set-up: one temporary folder for the whole run. Every copy of the site, output
 * folder and browser profile the suites make (all under os.tmpdir()) goes into it, through TMPDIR,
 * which the test workers, the CLI they start and Chromium inherit; the folder is removed when the
 * run ends, whatever the suites left behind.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  // Each vitest project runs the set-up (vitest.config.ts): the first one's folder serves them all,
  // since folders nested in folders would make Chromium's socket path longer than Linux allows.
  if (process.env.CLINIC_TESTS_ROOT) return () => {}
  const root = mkdtempSync(join(tmpdir(), 'clinic-tests-'))
  // Open to other users, as the system's temporary folder is: one suite runs the build as
  // another user, on a site copy it opened to everyone (tests/content/odd-files.test.ts).
  chmodSync(root, 0o755)
  process.env.TMPDIR = process.env.CLINIC_TESTS_ROOT = root
  return () => rmSync(root, { recursive: true, force: true })
}
