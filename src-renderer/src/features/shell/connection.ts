// The connection in words, as the main process knows it from the outcome of its requests (AppStatus.connection and
// .accounts): the status bar's line, each account's, and the "next try in N s" of what waits for a server.
import { useSyncExternalStore } from 'react'
import type { Connection } from '../../../../src-shared/contract'
import { createSharedClock, secondsUntil } from './clock'
import { useStatusStore } from './statusStore'

/** The account's connection (the status bar's when no account is given); null before the first status. */
export function useConnection(accountId?: string): Connection | null {
  return useStatusStore((state) => {
    const status = state.status
    if (status === null) return null
    if (accountId === undefined || !status.online) return status.connection
    return status.accounts.find((account) => account.accountId === accountId)?.connection ?? ONLINE
  })
}

const ONLINE: Connection = { state: 'online', accountId: null, host: null, waiting: 0, nextTryAt: null, reason: null }

const windowClock = createSharedClock()
const notCounting = () => () => {}

/** Whole seconds until `iso`, read from the window's one shared clock so every countdown agrees; null without a time. */
export function useSecondsUntil(iso: string | null): number | null {
  const now = useSyncExternalStore(iso === null ? notCounting : windowClock.subscribe, windowClock.now)
  return secondsUntil(iso, now)
}

/** "Online", "Can't reach blog.example.com — 3 waiting, next try in 5 s", "Offline (this computer)", "Signed out of …". */
export function describeConnection(connection: Connection, secondsToNextTry: number | null, accountLabel?: string): string {
  switch (connection.state) {
    case 'online':
      return 'Online'
    case 'offline':
      return 'Offline (this computer)'
    case 'signed-out':
      return `Signed out of ${accountLabel ?? connection.host ?? 'an account'}`
    case 'unreachable': {
      const waiting = connection.waiting > 0 ? `${connection.waiting} waiting` : ''
      const nextTry = secondsToNextTry === null ? '' : secondsToNextTry === 0 ? 'trying now' : `next try in ${secondsToNextTry} s`
      const details = [waiting, nextTry].filter((part) => part !== '').join(', ')
      return `Can't reach ${connection.host}${details ? ` — ${details}` : ''}`
    }
  }
}

/** What a queued item's badge says while its server cannot be reached: "Waiting — next try in N s". */
export function describeWaiting(secondsToNextTry: number | null): string {
  if (secondsToNextTry === null) return 'Waiting'
  return secondsToNextTry === 0 ? 'Waiting — trying now' : `Waiting — next try in ${secondsToNextTry} s`
}
