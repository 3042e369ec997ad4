import { useEffect, useId, useState } from 'react'
import type { OutboxItem, OutboxItemKind, OutboxItemState } from '../../../../src-shared/contract'
import { openInBrowser } from '../../lib/links'
import { Button, classNames, ConfirmDialog, ErrorNotice, Icon, Pane, Spinner } from '../../ui'
import { useAccountsStore } from '../accounts'
import { useNavigation } from '../navigation'
import { orderedItems, useOutboxStore } from './outboxStore'
import { describeWaiting, useConnection, useSecondsUntil } from './connection'
import { useStatusStore } from './statusStore'
import { describeOutbox } from './StatusBar'
import './shell.css'
import { dateFormat, timeOfDay } from '../../lib/dateFormat'

const kindLabels: Record<OutboxItemKind, string> = {
  'post.create': 'New post',
  'post.update': 'Post update',
  'post.delete': 'Post deletion',
  upload: 'File upload',
  photo: 'Photo',
  'list-item': 'List item',
}

const stateLabels: Record<OutboxItemState, string> = {
  queued: 'Waiting',
  sending: 'Sending…',
  done: 'Sent',
  'needs-attention': 'Needs attention',
  conflict: 'Conflict',
}

/** Every operation on its way to a server: its state, why it is stopped, and Retry or Discard. */
export function OutboxPanel() {
  const list = useOutboxStore((state) => state.list)
  const items = useOutboxStore((state) => state.items)
  const load = useOutboxStore((state) => state.load)
  const status = useStatusStore((state) => state.status)
  const [discarding, setDiscarding] = useState<OutboxItem | null>(null)
  const discard = useOutboxStore((state) => state.discard)
  const discardBusy = useOutboxStore((state) => discarding !== null && state.acting[discarding.id]?.status === 'busy')

  useEffect(() => {
    void load()
  }, [load])

  const entries = orderedItems(items)
  return (
    <Pane layout="wide" className="outbox">
      <header className="outbox__header">
        <h1 className="outbox__title">Outbox</h1>
        <p className="outbox__summary">Changes on their way to your weblogs, albums and lists: {status ? describeOutbox(status.outbox).toLowerCase() : '…'}.</p>
        {status && !status.online && (
          <p className="outbox__summary">This computer is offline: everything waiting goes out when it is back online.</p>
        )}
      </header>
      {list.status === 'failed' && <ErrorNotice error={list.error} onRetry={() => void load()} />}
      {(list.status === 'loading' || list.status === 'idle') && <Spinner label="Loading the outbox…" />}
      {list.status === 'loaded' && entries.length === 0 && (
        <div className="outbox__empty">
          <p className="outbox__empty-title">Nothing is waiting.</p>
          <p>Everything you published has reached its server. What you publish while offline waits here until it can be sent.</p>
        </div>
      )}
      {entries.length > 0 && (
        <ol className="outbox__list" aria-label="Operations">
          {entries.map((item) => (
            <OutboxEntry key={item.id} item={item} onDiscard={() => setDiscarding(item)} />
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={discarding !== null}
        title={discarding ? `Discard “${discarding.title}”?` : 'Discard?'}
        confirmLabel="Discard"
        destructive
        busy={discardBusy}
        onCancel={() => setDiscarding(null)}
        onConfirm={() => {
          if (!discarding) return
          void discard(discarding.id).then(() => setDiscarding(null))
        }}
      >
        {discarding && <p>{discardConsequence(discarding)}</p>}
      </ConfirmDialog>
    </Pane>
  )
}

function OutboxEntry({ item, onDiscard }: { item: OutboxItem; onDiscard(): void }) {
  const titleId = useId()
  const progress = useOutboxStore((state) => state.progress[item.id])
  const acting = useOutboxStore((state) => state.acting[item.id])
  const retry = useOutboxStore((state) => state.retry)
  const accountLabel = useAccountsStore((state) =>
    state.accounts.status === 'loaded' ? state.accounts.value.find((account) => account.id === item.accountId)?.label : undefined,
  )
  const connection = useConnection(item.accountId)
  // While its server cannot be reached, the item waits for the server's next try, not for its own backoff.
  const serverNextTry = item.state === 'queued' && connection?.state === 'unreachable' ? connection.nextTryAt : null
  const secondsToNextTry = useSecondsUntil(serverNextTry)
  const { navigate, openDraft } = useNavigation.getState()
  const stopped = item.state === 'needs-attention' || item.state === 'conflict'
  const busy = acting?.status === 'busy'
  return (
    <li className={classNames('outbox-entry', `outbox-entry--${item.state}`)} aria-labelledby={titleId}>
      <div className="outbox-entry__head">
        <span className="outbox-entry__kind">{kindLabels[item.kind]}</span>
        <h2 className="outbox-entry__title" id={titleId}>
          {item.title}
        </h2>
        <span className={classNames('outbox-state', `outbox-state--${item.state}`)}>
          {serverNextTry === null ? stateLabels[item.state] : describeWaiting(secondsToNextTry)}
        </span>
      </div>
      <p className="outbox-entry__meta">{describeTiming(item, accountLabel, serverNextTry === null)}</p>
      {item.state === 'sending' && progress && (
        <progress className="outbox-entry__progress" value={progress.sent} max={progress.total} aria-label={`Sending ${item.title}`} />
      )}
      {item.lastError && item.state !== 'done' && (
        <p className={classNames('outbox-entry__reason', stopped && 'outbox-entry__reason--stopped')}>
          {stopped ? item.lastError : `Last try: ${item.lastError}`}
        </p>
      )}
      {acting?.status === 'failed' && <ErrorNotice error={acting.error} />}
      <div className="outbox-entry__actions">
        {stopped && (
          <Button variant="primary" disabled={busy} onClick={() => void retry(item.id)}>
            Retry
          </Button>
        )}
        {item.state === 'queued' && item.nextAttemptAt !== null && (
          <Button disabled={busy} onClick={() => void retry(item.id)}>
            Try now
          </Button>
        )}
        {item.draftId !== null && item.kind.startsWith('post.') && item.state !== 'done' && (
          <Button
            variant="quiet"
            onClick={() => {
              navigate({ kind: 'drafts', accountId: item.accountId, weblogPostUri: item.queueKey })
              openDraft(item.draftId)
            }}
          >
            Open the draft
          </Button>
        )}
        {item.state === 'done' && item.resultUrl !== null && (
          <Button variant="quiet" onClick={() => void openInBrowser(item.resultUrl!)}>
            <Icon name="external" /> View on the web
          </Button>
        )}
        {item.state !== 'done' && item.state !== 'sending' && (
          <Button variant="quiet" className="outbox-entry__discard" disabled={busy} onClick={onDiscard}>
            Discard
          </Button>
        )}
      </div>
    </li>
  )
}

const dateTimeFormat = dateFormat({ dateStyle: 'medium', timeStyle: 'short' })

function describeTiming(item: OutboxItem, accountLabel: string | undefined, ownNextTry: boolean): string {
  const parts: string[] = []
  if (accountLabel) parts.push(accountLabel)
  parts.push(`queued ${dateTimeFormat.format(new Date(item.enqueuedAt))}`)
  if (item.attempts > 0 && item.state !== 'done') parts.push(`${item.attempts} ${item.attempts === 1 ? 'attempt' : 'attempts'}`)
  if (ownNextTry && item.state === 'queued' && item.nextAttemptAt !== null) parts.push(`next try at ${timeOfDay.format(new Date(item.nextAttemptAt))}`)
  return parts.join(' · ')
}

function discardConsequence(item: OutboxItem): string {
  switch (item.kind) {
    case 'post.create':
      return 'The post will not be published, and later changes of the same draft waiting behind it are discarded too. The draft keeps its text.'
    case 'post.update':
      return 'This change will not reach the weblog. The draft keeps its text, so you can publish it again later.'
    case 'post.delete':
      return 'The post stays on the weblog.'
    case 'upload':
      return 'The file will not be uploaded.'
    case 'photo':
      return 'The photo will not be sent to the album.'
    case 'list-item':
      return 'The item will not be added to the list.'
  }
}
