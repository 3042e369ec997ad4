let windowDrawn: () => void
const drawn = new Promise<void>((resolve) => (windowDrawn = resolve))

/** Called once the window's first screen is drawn: from then on `whenIdle` can resolve. */
export function markWindowDrawn(): void {
  windowDrawn()
}

/**
 * Resolves once the window is drawn and has nothing more pressing to do (within two seconds after): for reading what
 * is already shown again from the server, which must hold up neither the first screen's answers nor its drawing.
 */
export function whenIdle(): Promise<void> {
  return drawn.then(() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2_000 })))
}
