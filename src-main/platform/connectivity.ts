// Whether the computer is online, for core's sync engine and the status bar.
//
// Electron's main process has no online/offline event, and the renderer's navigator.onLine is no source of truth
// (the renderer is untrusted, and on macOS it may not exist while the app runs without a window). So main asks
// net.isOnline() — Chromium's own network-change state, a cheap in-memory read — every few seconds while anyone
// listens, and at once when the computer wakes or is unlocked, when the network has most likely changed.
import { net, powerMonitor } from 'electron'
import type { Connectivity } from '../core'

export const CONNECTIVITY_POLL_MS = 5_000

export function watchConnectivity(pollMs = CONNECTIVITY_POLL_MS): Connectivity {
  const listeners = new Set<(online: boolean) => void>()
  let online = net.isOnline()
  let timer: ReturnType<typeof setInterval> | null = null

  const check = () => {
    const now = net.isOnline()
    if (now === online) return
    online = now
    for (const listener of [...listeners]) listener(online)
  }
  const startWatching = () => {
    timer = setInterval(check, pollMs)
    powerMonitor.on('resume', check)
    powerMonitor.on('unlock-screen', check)
  }
  const stopWatching = () => {
    if (timer) clearInterval(timer)
    timer = null
    powerMonitor.off('resume', check)
    powerMonitor.off('unlock-screen', check)
  }

  return {
    // Asked afresh; listeners hear of a change at the next look, never from inside this call.
    isOnline: () => net.isOnline(),
    onChange(listener) {
      if (listeners.size === 0) startWatching()
      listeners.add(listener)
      return () => {
        if (listeners.delete(listener) && listeners.size === 0) stopWatching()
      }
    },
  }
}
