// Debian's Chromium, as the e2e tests and the renderer benchmarks launch it: never a downloaded browser, and none of
// the background traffic a fresh profile would send off this machine.
export const CHROMIUM_PATH = '/usr/lib/chromium/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
