// Whom each account follows, and the neighbours it could follow: mirrors of what the main process last said, what
// is loading, and how following someone went. Counts of news come in with 'friends:updated'.
import { create } from 'zustand'
import type { FriendSummary, Person } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { NEWS_REDRAW_INTERVAL_MS, throttled } from './throttle'

export type Loadable<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: ApiError }

export type FollowStatus = { status: 'idle' } | { status: 'following'; username: string } | { status: 'failed'; error: ApiError }

export interface FriendsState {
  friendsByAccount: Partial<Record<string, Loadable<FriendSummary[]>>>
  neighboursByAccount: Partial<Record<string, Loadable<Person[]>>>
  follow: FollowStatus
  /** Why stopping to follow someone failed, in words. */
  removeError: ApiError | null
  /** Why changing whether a friend's remote images load failed, in words. */
  remoteImagesError: ApiError | null

  loadFriends(accountId: string): Promise<void>
  loadNeighbours(accountId: string): Promise<void>
  /** Resolves with the friend once followed (or already followed); null when that failed (see `follow`). */
  followPerson(accountId: string, username: string): Promise<FriendSummary | null>
  unfollow(friend: FriendSummary): Promise<boolean>
  setRemoteImages(friend: FriendSummary, load: boolean): Promise<void>
  receive(friend: FriendSummary): void
  /** Takes each friend's news count as it comes; returns the function that stops. */
  followUpdates(): () => void
  clearFollowError(): void
}

export const useFriendsStore = create<FriendsState>()((set, get) => ({
  friendsByAccount: {},
  neighboursByAccount: {},
  follow: { status: 'idle' },
  removeError: null,
  remoteImagesError: null,

  async loadFriends(accountId) {
    // Keeps showing what it had while it asks again.
    if (!get().friendsByAccount[accountId]) setFriends(accountId, { status: 'loading' })
    try {
      setFriends(accountId, { status: 'loaded', value: await api.friends.list({ accountId }) })
    } catch (error) {
      setFriends(accountId, { status: 'failed', error: toApiError(error) })
    }
  },

  async loadNeighbours(accountId) {
    set((state) => ({ neighboursByAccount: { ...state.neighboursByAccount, [accountId]: { status: 'loading' } } }))
    let neighbours: Loadable<Person[]>
    try {
      neighbours = { status: 'loaded', value: await api.friends.neighbours({ accountId }) }
    } catch (error) {
      neighbours = { status: 'failed', error: toApiError(error) }
    }
    set((state) => ({ neighboursByAccount: { ...state.neighboursByAccount, [accountId]: neighbours } }))
  },

  async followPerson(accountId, username) {
    set({ follow: { status: 'following', username: username.trim() } })
    try {
      const friend = await api.friends.add({ accountId, username })
      set({ follow: { status: 'idle' } })
      const friends = get().friendsByAccount[accountId]
      if (friends?.status === 'loaded') {
        const others = friends.value.filter((existing) => existing.id !== friend.id)
        setFriends(accountId, { status: 'loaded', value: [...others, friend] })
      }
      return friend
    } catch (error) {
      set({ follow: { status: 'failed', error: toApiError(error) } })
      return null
    }
  },

  async unfollow(friend) {
    set({ removeError: null })
    try {
      await api.friends.remove({ friendId: friend.id })
    } catch (error) {
      set({ removeError: toApiError(error) })
      return false
    }
    const friends = get().friendsByAccount[friend.accountId]
    if (friends?.status === 'loaded') {
      setFriends(friend.accountId, { status: 'loaded', value: friends.value.filter((known) => known.id !== friend.id) })
    }
    return true
  },

  async setRemoteImages(friend, load) {
    set({ remoteImagesError: null })
    let updated: FriendSummary
    try {
      updated = await api.friends.setRemoteImages({ friendId: friend.id, load })
    } catch (error) {
      set({ remoteImagesError: toApiError(error) })
      return
    }
    // Shown at once, not with the next batch of news: the reader is looking at the button. The answer is the
    // friend as now stored, so news of it still on its way is older.
    arrived.delete(updated.id)
    const friends = get().friendsByAccount[updated.accountId]
    if (friends?.status === 'loaded') {
      setFriends(updated.accountId, { status: 'loaded', value: friends.value.map((existing) => (existing.id === updated.id ? updated : existing)) })
    }
  },

  receive(friend) {
    arrived.set(friend.id, friend)
    applyArrivedSoon()
  },

  followUpdates: () => api.friends.onUpdated((friend) => get().receive(friend)),

  clearFollowError() {
    if (get().follow.status === 'failed') set({ follow: { status: 'idle' } })
  },
}))

/** News of friends not yet drawn, the latest for each. */
const arrived = new Map<string, FriendSummary>()

const applyArrivedSoon = throttled(() => {
  const { friendsByAccount } = useFriendsStore.getState()
  const updated = { ...friendsByAccount }
  for (const friend of arrived.values()) {
    // Only friends still listed: news of one just removed may still be on its way.
    const friends = updated[friend.accountId]
    if (friends?.status !== 'loaded' || !friends.value.some((existing) => existing.id === friend.id)) continue
    updated[friend.accountId] = { status: 'loaded', value: friends.value.map((existing) => (existing.id === friend.id ? friend : existing)) }
  }
  arrived.clear()
  useFriendsStore.setState({ friendsByAccount: updated })
}, NEWS_REDRAW_INTERVAL_MS)

function setFriends(accountId: string, friends: Loadable<FriendSummary[]>): void {
  useFriendsStore.setState((state) => ({ friendsByAccount: { ...state.friendsByAccount, [accountId]: friends } }))
}
