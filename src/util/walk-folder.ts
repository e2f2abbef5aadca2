import { readdirSync, type Dirent } from 'node:fs'
import { join } from 'node:path'

/**
 * Visits what `root` holds, folder by folder: `visit` gets each entry's path below `root`, made
 * of the entries' names joined with forward slashes (as routes, URLs and messages name files, on
 * every platform), and the entry itself; a folder is entered when `visit` returns true.
 *
 * Not readdirSync's `recursive`: from Node 22 on it enters linked folders too, round a circle of
 * them forty levels deep, and the callers decide what a link may lead to.
 */
export function walkFolder(root: string, visit: (path: string, entry: Dirent) => boolean | void): void {
  const enter = (folder: string) => {
    for (const entry of readdirSync(folder ? join(root, folder) : root, { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name
      if (visit(path, entry) === true && entry.isDirectory()) enter(path)
    }
  }
  enter('')
}
