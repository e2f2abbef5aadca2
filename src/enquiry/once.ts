/**
 * Stores an enquiry at most once per submission id while the server runs. A retry that arrives
 * while the first attempt is still being written waits for it: if that write succeeds the retry
 * is answered as stored, if it fails the retry writes instead, so a success is never claimed for
 * an enquiry that is not on disk.
 */
export function oncePerSubmission() {
  const writes = new Map<string, Promise<void>>()
  return async (id: string | undefined, write: () => Promise<void>): Promise<'written' | 'already stored'> => {
    if (id !== undefined) {
      for (let earlier = writes.get(id); earlier; earlier = writes.get(id)) {
        if (await earlier.then(() => true, () => false)) return 'already stored'
        if (writes.get(id) === earlier) writes.delete(id)
      }
    }
    const writing = write()
    if (id !== undefined) writes.set(id, writing)
    await writing
    return 'written'
  }
}
