// A friend's activity, newest first, in the main pane. Loaded lazily by the shell (LazyActivityFeed, or React.lazy
// on this module): the virtualiser and the feed's rows stay out of the app's first load. Each part draws again only
// when what it shows changes: news arriving ten times a second redraws the "N new" button, not the list.
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { memo, useCallback, useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent, type MouseEvent } from 'react'
import type { FriendSummary } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { Alert, Button, ErrorNotice, Icon, Pane, Spinner } from '../../ui'
import { ESTIMATED_ROW_HEIGHT, FeedRow } from './FeedRow'
import { BLOCK_SIZE, type FeedWindow } from './feed-window'
import { useFriendsStore } from './friends-store'
import { linkOf, openableUrl, openInBrowser } from '../../lib/links'
import { feedWindowFor, followNews } from './open-feed'
import { avatarSource, nameOf } from './words'
import './activity-feed.css'

export interface ActivityFeedProps {
  /** The friend whose feed is open; null when none is chosen yet. */
  friendId: string | null
}

export function ActivityFeed({ friendId }: ActivityFeedProps) {
  if (friendId === null) {
    return (
      <Pane layout="centered">
        <p>Choose a friend to see what they have been up to, or follow someone by their username.</p>
      </Pane>
    )
  }
  return <FriendFeed key={friendId} friendId={friendId} />
}

/** Rows drawn beyond each edge of the view, so a slow scroll never shows an empty row. */
const OVERSCAN = 6
/** Rows read ahead of those drawn, so rows coming into view have their events already. */
const READ_AHEAD = BLOCK_SIZE / 2
/** How near the end of the list older events are asked for. */
const OLDER_THRESHOLD = 12
/** How often "5 min ago" is brought up to date. */
const CLOCK_TICK_MS = 30_000

/** Draws again when `read` gives something else after a change of the feed (read a number, a string or a flag). */
function useFeed<T>(feed: FeedWindow, read: (feed: FeedWindow) => T): T {
  return useSyncExternalStore(feed.subscribe, () => read(feed))
}

function FriendFeed({ friendId }: { friendId: string }) {
  const [feed] = useState(() => feedWindowFor(friendId))
  useEffect(() => {
    const unsubscribe = followNews(feed)
    void feed.open()
    return () => {
      unsubscribe()
      feed.close()
    }
  }, [feed])
  useFeed(feed, (current) => current.statusVersion)

  if (feed.state === null && feed.opening.status === 'busy') {
    return (
      <Pane layout="centered">
        <Spinner label="Opening the feed…" />
      </Pane>
    )
  }
  if (feed.state === null) {
    return (
      <Pane layout="narrow">
        {feed.opening.status === 'failed' && <ErrorNotice error={feed.opening.error} onRetry={() => void feed.open()} />}
      </Pane>
    )
  }
  return <OpenFeed feed={feed} />
}

function OpenFeed({ feed }: { feed: FeedWindow }) {
  const friend = feed.state!.friend
  const name = nameOf(friend)
  // The friends list holds the choice as last changed; the feed's own copy is from when it opened.
  const listed = useFriendsStore((state) => {
    const friends = state.friendsByAccount[friend.accountId]
    return friends?.status === 'loaded' ? friends.value.find((known) => known.id === friend.id) : undefined
  })
  const loadRemoteImages = (listed ?? friend).loadRemoteImages
  const empty = useFeed(feed, (current) => current.shown === 0 && current.pending === 0)
  const [linkError, setLinkError] = useState<ApiError | null>(null)
  const openLink = useCallback((url: string) => {
    setLinkError(null)
    openInBrowser(url).catch((error: unknown) => setLinkError(toApiError(error)))
  }, [])

  return (
    <div className="activity-feed">
      <header className="activity-feed__header">
        <img className="activity-feed__avatar" src={avatarSource(friend, 75)} width={48} height={48} alt="" />
        <div className="activity-feed__who">
          <h1 className="activity-feed__name">{name}</h1>
          <p className="activity-feed__username">@{friend.username}</p>
          <RemoteImagesChoice friend={listed ?? friend} />
        </div>
        <div className="activity-feed__actions">
          <Button variant="quiet" onClick={() => openLink(friend.profilePageUrl)}>
            <Icon name="external" /> Profile<span className="visually-hidden"> of {name}</span>
          </Button>
          <Button disabled={feed.refreshing.status === 'busy'} onClick={() => void feed.refresh()}>
            {feed.refreshing.status === 'busy' ? 'Checking…' : 'Check for news'}
          </Button>
        </div>
      </header>
      <FeedNotices feed={feed} name={name} linkError={linkError} />
      {empty ? (
        <EmptyFeed feed={feed} name={name} />
      ) : (
        <FeedList feed={feed} name={name} loadRemoteImages={loadRemoteImages} openLink={openLink} />
      )}
      <NewsAnnouncement feed={feed} name={name} />
    </div>
  )
}

/** Whether images in the friend's events load from their servers: off until the reader says so, as in a mail client. */
function RemoteImagesChoice({ friend }: { friend: FriendSummary }) {
  const setRemoteImages = useFriendsStore((state) => state.setRemoteImages)
  const error = useFriendsStore((state) => state.remoteImagesError)
  const load = !friend.loadRemoteImages
  return (
    <div className="activity-feed__images">
      <p>
        <span>{friend.loadRemoteImages ? 'Remote images are loaded' : 'Remote images are not loaded'}</span>
        <Button variant="quiet" onClick={() => void setRemoteImages(friend, load)}>
          {load ? 'Load remote images' : 'Stop loading remote images'}
        </Button>
      </p>
      {error && <ErrorNotice error={error} />}
    </div>
  )
}

function FeedNotices({ feed, name, linkError }: { feed: FeedWindow; name: string; linkError: ApiError | null }) {
  const state = feed.state!
  const tryAgain = (
    <Button disabled={feed.refreshing.status === 'busy'} onClick={() => void feed.refresh()}>
      Try again
    </Button>
  )
  return (
    <>
      {state.offline && (
        <Alert tone="warning" title="Offline: showing saved events" className="activity-feed__notice" actions={tryAgain}>
          <p>
            {state.problem ?? 'The service could not be reached.'} These are {name}’s events as Blogdesk last read them; news
            appears once the service can be reached again.
          </p>
        </Alert>
      )}
      {!state.offline && state.problem && (
        <Alert tone="error" title="The service refused to show news" className="activity-feed__notice" actions={tryAgain}>
          <p>{state.problem}</p>
        </Alert>
      )}
      {feed.refreshing.status === 'failed' && (
        <ErrorNotice error={feed.refreshing.error} onRetry={() => void feed.refresh()} className="activity-feed__notice" />
      )}
      {linkError && <ErrorNotice error={linkError} className="activity-feed__notice" />}
    </>
  )
}

function EmptyFeed({ feed, name }: { feed: FeedWindow; name: string }) {
  if (feed.refreshing.status === 'busy') {
    return (
      <div className="activity-feed__empty">
        <Spinner label={`Reading ${name}’s activity…`} />
      </div>
    )
  }
  return (
    <div className="activity-feed__empty">
      <p>{feed.state!.hasOlder ? `Nothing of ${name}’s has been read yet.` : `${name} has not done anything yet.`}</p>
      <Button onClick={() => void feed.refresh()}>Check for news</Button>
    </div>
  )
}

/** Tells screen readers once that news is waiting; the button says how much. */
function NewsAnnouncement({ feed, name }: { feed: FeedWindow; name: string }) {
  const waiting = useFeed(feed, (current) => current.pending > 0)
  return (
    <p className="visually-hidden" aria-live="polite">
      {waiting ? `New events from ${name} are waiting above the list.` : ''}
    </p>
  )
}

interface FeedListProps {
  feed: FeedWindow
  name: string
  loadRemoteImages: boolean
  openLink(url: string): void
}

function FeedList({ feed, name, loadRemoteImages, openLink }: FeedListProps) {
  const rowsVersion = useFeed(feed, (current) => current.rowsVersion)
  const hasOlder = feed.state!.hasOlder
  const olderStatus = useFeed(feed, (current) => current.older.status)
  const scroller = useRef<HTMLDivElement>(null)
  const [focusedIndex, setFocusedIndex] = useState<number | null>(null)
  const now = useClock(CLOCK_TICK_MS)

  // The row holding the keyboard focus stays drawn while it scrolls out of view, so focus is never lost.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range)
      if (focusedIndex === null || focusedIndex >= range.count || indexes.includes(focusedIndex)) return indexes
      return [...indexes, focusedIndex].sort((a, b) => a - b)
    },
    [focusedIndex],
  )
  // A new key function would make the virtualiser lay out every row again.
  const keyAt = useCallback((index: number) => feed.keyAt(index), [feed])
  // The virtualiser's functions change as it measures: this component is not memoised by the compiler, by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: feed.shown,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: keyAt,
    overscan: OVERSCAN,
    rangeExtractor,
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
    // When rows go in above (news) or below (older events), the row at the top of the view keeps its place: the
    // virtualiser finds it by key and moves the scroll position before drawing, so nothing jumps.
    anchorTo: 'end',
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items.at(-1)?.index ?? -1

  useEffect(() => feed.need(first - READ_AHEAD, last + READ_AHEAD), [feed, first, last, rowsVersion])
  const nearEnd = last >= feed.shown - OLDER_THRESHOLD
  useEffect(() => {
    if (nearEnd && hasOlder && olderStatus === 'idle') void feed.loadOlder()
  }, [feed, nearEnd, hasOlder, olderStatus])

  const showNews = useCallback(() => {
    feed.insertPending()
    // The button goes away; the keyboard carries on in the list.
    scroller.current?.focus({ preventScroll: true })
  }, [feed])

  // Home and End jump at once: the browser's smooth scroll would stop short when rows measured on the way change
  // size above the reader. Arrows and Page Up/Down scroll as they do in a page.
  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const element = scroller.current
    if (!element || event.target !== element || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    if (event.key === 'Home') element.scrollTop = 0
    else if (event.key === 'End') element.scrollTop = element.scrollHeight
    else return
    event.preventDefault()
  }

  function onClick(event: MouseEvent<HTMLElement>) {
    const link = linkOf(event.target)
    if (!link) return
    event.preventDefault()
    const row = link.closest<HTMLElement>('[data-index]')
    const base = row ? feed.eventAt(Number(row.dataset['index']))?.object.permalink : null
    const url = openableUrl(link.getAttribute('href'), base)
    if (url) openLink(url)
  }

  const rowsId = `feed-rows-${feed.friendId}`
  return (
    <div className="activity-feed__viewport">
      <NewsButton feed={feed} controls={rowsId} onShow={showNews} />
      <div
        ref={scroller}
        className="activity-feed__scroller"
        role="region"
        tabIndex={0}
        aria-label={`${name}’s activity`}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onAuxClick={(event) => linkOf(event.target) && event.preventDefault()}
        onFocus={(event) => {
          const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]')
          setFocusedIndex(row ? Number(row.dataset['index']) : null)
        }}
      >
        <div
          ref={virtualizer.containerRef}
          id={rowsId}
          className="activity-feed__rows"
          role="feed"
          aria-label={`Events of ${name}, newest first`}
          aria-busy={olderStatus === 'busy' || items.some((item) => feed.eventAt(item.index) === null)}
        >
          {items.map((item) => (
            <FeedRow
              key={item.key}
              index={item.index}
              event={feed.eventAt(item.index)}
              fresh={item.index < feed.fresh}
              setSize={hasOlder ? -1 : feed.shown}
              now={now}
              loadRemoteImages={loadRemoteImages}
              measure={virtualizer.measureElement}
            />
          ))}
        </div>
        <FeedEnd feed={feed} name={name} />
      </div>
    </div>
  )
}

/**
 * "N new": puts the news waiting above the list on top, without moving what the reader is looking at. It sits in a
 * strip of its own above the list, there whether news waits or not, so it never covers a row and its coming never
 * pushes the rows down.
 */
const NewsButton = memo(function NewsButton({ feed, controls, onShow }: { feed: FeedWindow; controls: string; onShow(): void }) {
  const pending = useFeed(feed, (current) => current.pending)
  return (
    <div className="activity-feed__news">
      {pending === 0 ? (
        <span className="activity-feed__up-to-date">Up to date</span>
      ) : (
        <button type="button" className="activity-feed__pill" aria-controls={controls} onClick={onShow}>
          <span aria-hidden="true">↑</span> {pending} new
        </button>
      )}
    </div>
  )
})

function FeedEnd({ feed, name }: { feed: FeedWindow; name: string }) {
  const older = feed.older
  return (
    <div className="activity-feed__end">
      {older.status === 'busy' && <Spinner label="Reading older events…" />}
      {older.status === 'failed' && <ErrorNotice error={older.error} onRetry={() => void feed.loadOlder()} />}
      {older.status === 'idle' && feed.state!.hasOlder && <Button onClick={() => void feed.loadOlder()}>Show older events</Button>}
      {!feed.state!.hasOlder && <p className="activity-feed__last">That is everything {name} has done.</p>}
    </div>
  )
}

/** Now, in ms, moved on every `tickMs`. */
function useClock(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs)
    return () => clearInterval(timer)
  }, [tickMs])
  return now
}
