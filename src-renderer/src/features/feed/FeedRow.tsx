import { Fragment, memo, useId, type Ref } from 'react'
import type { ActivityEvent } from '../../../../src-shared/contract'
import { classNames } from '../../ui'
import { sanitizedHtml } from './sanitize'
import { avatarSource, exactTime, nameOf, relativeTime, sentenceOf, type SentencePart } from './words'

/**
 * A row's height before it is measured: a one-line sentence with two lines of text under it. A row still being read
 * is drawn exactly this tall, so measuring it changes nothing and the list is laid out once, when its event comes.
 */
export const ESTIMATED_ROW_HEIGHT = 132

/** How big avatars are drawn, and the size asked of the server (TypePad's 50si, shrunk a little for sharpness). */
const AVATAR_SIZE = 40
const AVATAR_SPEC = 50

export interface FeedRowProps {
  index: number
  /** null while the row's event is being read. */
  event: ActivityEvent | null
  /** Arrived since the reader last looked. */
  fresh: boolean
  /** How many rows the feed has; -1 while older ones may still come. */
  setSize: number
  /** Now, in ms, moved on by the feed's clock: rows re-render only when their "5 min ago" may change. */
  now: number
  /** Images in the event's HTML may load from their servers (the reader allowed it for the friend). */
  loadRemoteImages: boolean
  measure: Ref<HTMLElement>
}

/**
 * One event of the feed: who did what, when, and what it was about. News inserted above changes every row's index,
 * so the row is in two parts: the article with its place in the list, and its content, drawn again only when the
 * event, the clock or its freshness changes.
 */
export const FeedRow = memo(function FeedRow({ index, event, fresh, setSize, now, loadRemoteImages, measure }: FeedRowProps) {
  const sentenceId = useId()
  const timeId = useId()
  if (event === null) {
    return (
      <article
        ref={measure}
        data-index={index}
        className="feed-row feed-row--placeholder"
        style={{ height: ESTIMATED_ROW_HEIGHT }}
        aria-posinset={index + 1}
        aria-setsize={setSize}
        aria-busy="true"
        aria-label="Loading an event…"
      >
        <span className="feed-row__avatar feed-row__avatar--placeholder" aria-hidden="true" />
        <span className="feed-row__body" aria-hidden="true">
          <span className="feed-row__bar" />
          <span className="feed-row__bar feed-row__bar--short" />
        </span>
      </article>
    )
  }
  return (
    <article
      ref={measure}
      data-index={index}
      className={classNames('feed-row', fresh && 'feed-row--fresh')}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      aria-labelledby={`${sentenceId} ${timeId}`}
    >
      <RowContent event={event} fresh={fresh} now={now} loadRemoteImages={loadRemoteImages} sentenceId={sentenceId} timeId={timeId} />
    </article>
  )
})

interface RowContentProps {
  event: ActivityEvent
  fresh: boolean
  now: number
  loadRemoteImages: boolean
  sentenceId: string
  timeId: string
}

const RowContent = memo(function RowContent({ event, fresh, now, loadRemoteImages, sentenceId, timeId }: RowContentProps) {
  const { object } = event
  const html = object.html ? sanitizedHtml(event.urlId, object.html, loadRemoteImages) : null
  return (
    <>
      <img className="feed-row__avatar" src={avatarSource(event.actor, AVATAR_SPEC)} width={AVATAR_SIZE} height={AVATAR_SIZE} alt="" loading="lazy" />
      <div className="feed-row__body">
        <p className="feed-row__sentence" id={sentenceId}>
          <Sentence parts={sentenceOf(event)} />
        </p>
        <p className="feed-row__meta">
          <time id={timeId} className="feed-row__time" dateTime={event.published} title={exactTime(event.published)}>
            {relativeTime(event.published, now)}
          </time>
          {fresh && <span className="feed-row__fresh">New</span>}
        </p>
        {object.imageUrl && <img className="feed-row__photo" src={object.imageUrl} alt={object.title ?? ''} loading="lazy" />}
        {html ? (
          // Sanitised by DOMPurify (sanitize.ts): no scripts, event handlers or inline styles get through.
          <div className="feed-row__content" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          object.excerpt && <p className="feed-row__content">{object.excerpt}</p>
        )}
      </div>
    </>
  )
})

function Sentence({ parts }: { parts: SentencePart[] }) {
  return parts.map((part, position) => {
    switch (part.kind) {
      case 'text':
        return <Fragment key={position}>{part.text}</Fragment>
      case 'person':
        return (
          <a key={position} className="feed-row__person" href={part.person.profilePageUrl}>
            {nameOf(part.person)}
          </a>
        )
      case 'object':
        return part.href ? (
          <a key={position} className="feed-row__object" href={part.href}>
            {part.text}
          </a>
        ) : (
          <span key={position} className="feed-row__object">
            {part.text}
          </span>
        )
    }
  })
}
