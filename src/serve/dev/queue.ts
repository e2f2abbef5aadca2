/**
 * Rebuilds one at a time: changes that arrive while a rebuild runs are collected and handled by
 * the next one, so none is lost and two rebuilds never overlap. A save often fires several file
 * events within a millisecond or two; a short settling delay lets them join one rebuild.
 */
export const SETTLE_MS = 5

export interface RebuildQueue {
  add: (path: string) => void
  /** True while a rebuild runs or changes wait for one. */
  busy: () => boolean
  /** Resolves when nothing is running or waiting. */
  idle: () => Promise<void>
}

export function rebuildQueue(rebuild: (changed: string[]) => Promise<void>): RebuildQueue {
  const pending = new Set<string>()
  let draining: Promise<void> | undefined

  async function drain(): Promise<void> {
    await new Promise((settled) => setTimeout(settled, SETTLE_MS))
    while (pending.size > 0) {
      const batch = [...pending]
      pending.clear()
      await rebuild(batch)
    }
    draining = undefined
  }

  return {
    add(path) {
      pending.add(path)
      draining ??= drain()
    },
    busy: () => draining !== undefined,
    idle: async () => { while (draining) await draining },
  }
}
