/**
 * Resolves once the window has nothing more pressing to do (within two seconds): for reading what is already shown
 * again from the server, which must not hold up drawing the window.
 */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2_000 }))
}
