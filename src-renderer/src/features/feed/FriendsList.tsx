import { memo, useEffect, useId, useState, type FormEvent } from 'react'
import type { AccountSummary, FriendSummary, Person } from '../../../../src-shared/contract'
import { Button, ConfirmDialog, ErrorNotice, ListHeader, Spinner, TextField, classNames } from '../../ui'
import { useAccountsStore } from '../accounts'
import { useNavigation } from '../navigation'
import { useFriendsStore } from './friends-store'
import { loadActivityFeed } from './load'
import { avatarSource, nameOf } from './words'
import './friends-list.css'

export interface FriendsListProps {
  accountId: string
}

/** The list pane of the friends view: whom the account follows (with news counts), following someone, neighbours. */
export function FriendsList({ accountId }: FriendsListProps) {
  const account = useAccountsStore((state) =>
    state.accounts.status === 'loaded' ? (state.accounts.value.find((known) => known.id === accountId) ?? null) : null,
  )
  const loadFriends = useFriendsStore((state) => state.loadFriends)
  const followUpdates = useFriendsStore((state) => state.followUpdates)
  const headingId = useId()
  const connected = account?.json?.username != null

  useEffect(() => void loadActivityFeed(), [])
  useEffect(() => {
    void loadFriends(accountId)
    return followUpdates()
  }, [accountId, loadFriends, followUpdates])

  return (
    <section className="friends" aria-labelledby={headingId}>
      <ListHeader id={headingId} title="Friends" />
      {account && !connected && <NotConnected account={account} />}
      {connected && <FollowForm accountId={accountId} />}
      <FollowedList accountId={accountId} />
      {connected && <Neighbours accountId={accountId} />}
    </section>
  )
}

function NotConnected({ account }: { account: AccountSummary }) {
  return (
    <p className="friends__hint">
      Friends’ activity comes from the account’s JSON service. Connect {account.label} to it (sign in with OAuth in the
      account’s settings) to follow people here.
    </p>
  )
}

function FollowForm({ accountId }: { accountId: string }) {
  const follow = useFriendsStore((state) => state.follow)
  const followPerson = useFriendsStore((state) => state.followPerson)
  const clearFollowError = useFriendsStore((state) => state.clearFollowError)
  const openFriend = useNavigation((state) => state.openFriend)
  const [username, setUsername] = useState('')
  const [missing, setMissing] = useState(false)
  const busy = follow.status === 'following'

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (username.trim() === '') return setMissing(true)
    const friend = await followPerson(accountId, username)
    if (!friend) return
    setUsername('')
    openFriend(friend.id)
  }

  return (
    <form className="friends__follow" aria-label="Follow someone" noValidate onSubmit={(event) => void submit(event)}>
      <div className="friends__follow-row">
        <TextField
          label="Username"
          className="friends__follow-field"
          autoComplete="off"
          spellCheck={false}
          value={username}
          error={missing ? 'Type the username of the person to follow.' : null}
          onChange={(event) => {
            setUsername(event.target.value)
            setMissing(false)
            clearFollowError()
          }}
        />
        <Button type="submit" variant="primary" className="friends__follow-button" disabled={busy}>
          {busy ? 'Following…' : 'Follow'}
        </Button>
      </div>
      {follow.status === 'failed' && <ErrorNotice error={follow.error} className="friends__notice" />}
    </form>
  )
}

function FollowedList({ accountId }: { accountId: string }) {
  const friends = useFriendsStore((state) => state.friendsByAccount[accountId])
  const loadFriends = useFriendsStore((state) => state.loadFriends)
  const unfollow = useFriendsStore((state) => state.unfollow)
  const removeError = useFriendsStore((state) => state.removeError)
  const openFriendId = useNavigation((state) => state.friendId)
  const openFriend = useNavigation((state) => state.openFriend)
  const [confirming, setConfirming] = useState<FriendSummary | null>(null)
  const [removing, setRemoving] = useState(false)

  if (!friends || friends.status === 'loading') {
    return (
      <div className="friends__state">
        <Spinner label="Loading the people you follow…" />
      </div>
    )
  }
  if (friends.status === 'failed') {
    return <ErrorNotice error={friends.error} onRetry={() => void loadFriends(accountId)} className="friends__notice" />
  }

  async function confirmRemove() {
    if (!confirming) return
    setRemoving(true)
    const removed = await unfollow(confirming)
    setRemoving(false)
    if (removed && openFriendId === confirming.id) openFriend(null)
    setConfirming(null)
  }

  return (
    <>
      {removeError && <ErrorNotice error={removeError} className="friends__notice" />}
      {friends.value.length === 0 ? (
        <p className="friends__empty">You follow no one yet. Type a username above, or follow one of your neighbours below.</p>
      ) : (
        <ul className="friends__list" aria-label="People you follow">
          {friends.value.map((friend) => (
            <FriendItem key={friend.id} friend={friend} open={friend.id === openFriendId} onOpen={openFriend} onRemove={setConfirming} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Stop following ${confirming ? nameOf(confirming) : ''}?`}
        confirmLabel="Stop following"
        destructive
        busy={removing}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setConfirming(null)}
      >
        <p>Their events saved on this computer are removed too. You can follow them again at any time.</p>
      </ConfirmDialog>
    </>
  )
}

interface FriendItemProps {
  friend: FriendSummary
  open: boolean
  onOpen(friendId: string): void
  onRemove(friend: FriendSummary): void
}

/** One friend; news for another friend leaves it as it is. */
const FriendItem = memo(function FriendItem({ friend, open, onOpen, onRemove }: FriendItemProps) {
  const name = nameOf(friend)
  return (
    <li className={classNames('friend-item', open && 'friend-item--open')}>
      <button type="button" className="friend-item__open" aria-current={open ? 'true' : undefined} onClick={() => onOpen(friend.id)}>
        <PersonLine person={friend} />
        {/* The open friend's news is counted on the feed's own "N new" button. */}
        {friend.newCount > 0 && !open && <span className="friend-item__new">{friend.newCount} new</span>}
      </button>
      <button type="button" className="friend-item__remove" aria-label={`Stop following ${name}`} title={`Stop following ${name}`} onClick={() => onRemove(friend)}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  )
})

function Neighbours({ accountId }: { accountId: string }) {
  const neighbours = useFriendsStore((state) => state.neighboursByAccount[accountId])
  // The followed people's ids, as one string: news for a friend (a new count) does not redraw the neighbours.
  const followedIds = useFriendsStore((state) => {
    const friends = state.friendsByAccount[accountId]
    return friends?.status === 'loaded' ? friends.value.map((friend) => friend.urlId).join(' ') : ''
  })
  const loadNeighbours = useFriendsStore((state) => state.loadNeighbours)
  const followPerson = useFriendsStore((state) => state.followPerson)
  const follow = useFriendsStore((state) => state.follow)
  const openFriend = useNavigation((state) => state.openFriend)
  const headingId = useId()

  useEffect(() => {
    if (!useFriendsStore.getState().neighboursByAccount[accountId]) void loadNeighbours(accountId)
  }, [accountId, loadNeighbours])

  const followed = new Set(followedIds.split(' '))
  async function followNeighbour(person: Person) {
    const friend = await followPerson(accountId, person.urlId)
    if (friend) openFriend(friend.id)
  }

  return (
    <section className="friends__neighbours" aria-labelledby={headingId}>
      <h3 className="friends__subtitle" id={headingId}>
        Your neighbours
      </h3>
      {(!neighbours || neighbours.status === 'loading') && <Spinner label="Reading your neighbours…" className="friends__state" />}
      {neighbours?.status === 'failed' && (
        <ErrorNotice error={neighbours.error} onRetry={() => void loadNeighbours(accountId)} className="friends__notice" />
      )}
      {neighbours?.status === 'loaded' && <NeighbourItems people={neighbours.value} followed={followed} busy={follow.status === 'following'} onFollow={(person) => void followNeighbour(person)} />}
    </section>
  )
}

function NeighbourItems({ people, followed, busy, onFollow }: { people: Person[]; followed: Set<string>; busy: boolean; onFollow(person: Person): void }) {
  if (people.length === 0) return <p className="friends__empty">You have not added anyone as a neighbour yet.</p>
  const candidates = people.filter((person) => !followed.has(person.urlId))
  if (candidates.length === 0) return <p className="friends__empty">You follow all of your neighbours.</p>
  return (
    <ul className="friends__list" aria-label="Neighbours you could follow">
      {candidates.map((person) => (
        <li key={person.urlId} className="neighbour-item">
          <PersonLine person={person} />
          <Button className="neighbour-item__follow" disabled={busy} onClick={() => onFollow(person)}>
            Follow<span className="visually-hidden"> {nameOf(person)}</span>
          </Button>
        </li>
      ))}
    </ul>
  )
}

function PersonLine({ person }: { person: Person }) {
  return (
    <>
      <img className="person-line__avatar" src={avatarSource(person, 50)} width={32} height={32} alt="" />
      <span className="person-line__names">
        <span className="person-line__name">{nameOf(person)}</span>
        <span className="person-line__username">@{person.username}</span>
      </span>
    </>
  )
}
