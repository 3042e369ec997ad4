/**
 * Requests shared while they are on their way: asking again for what is already asked for waits for that answer
 * instead of sending a second request (the window's start and the part that shows the answer both ask, for one).
 */
export function sharedWhileInFlight(): (key: string, request: () => Promise<void>) => Promise<void> {
  const pending = new Map<string, Promise<void>>()
  return (key, request) => {
    let running = pending.get(key)
    if (!running) {
      running = request().finally(() => pending.delete(key))
      pending.set(key, running)
    }
    return running
  }
}
