/** Ctrl-C (SIGINT) and SIGTERM stop a server cleanly: connections closed, then exit 0. */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false
  const onSignal = () => {
    if (stopping) process.exit(130) // a second Ctrl-C does not wait
    stopping = true
    stop().then(() => process.exit(0), (error) => { console.error(error); process.exit(1) })
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}
