import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import type { ListEntry, ListType, OutboxItem } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { openInBrowser } from '../../lib/links'
import { Button, ErrorNotice, Icon, Pane, Spinner, TextArea, TextField, classNames } from '../../ui'
import { FIELD_LABELS, LIST_TYPE_ORDER, LIST_TYPES } from './listTypes'
import { listKey, useListStore, type AddedItem } from './listStore'
import { formatDay } from './format'
import { followOutbox, useOutboxTracking } from './outboxTracking'
import { StarRating, Stars } from './StarRating'
import { CollectionContentsHeading } from './CollectionContentsHeading'
import { CollectionMissing } from './CollectionMissing'
import { RefusedOperation } from './RefusedOperation'
import { useCollection, useCollectionsStore, useListType } from './store'
import './album.css'
import './list.css'

const NO_ADDED: AddedItem[] = []

/** A typed list: a form with the fields of its type, the items on their way, and those it holds. */
export function ListPane({ accountId, collectionUri }: { accountId: string; collectionUri: string }) {
  // Another list starts afresh: its own form and type choice.
  return <ListView key={listKey(accountId, collectionUri)} accountId={accountId} collectionUri={collectionUri} />
}

function ListView({ accountId, collectionUri }: { accountId: string; collectionUri: string }) {
  const list = useCollection(accountId, 'lists', collectionUri)
  const loadListing = useCollectionsStore((state) => state.load)
  const listType = useListType(accountId, collectionUri)
  // Until its items are read, the list's feed may yet tell its type: ask the person only once they are.
  const itemsStatus = useListStore((state) => state.items[listKey(accountId, collectionUri)]?.status)
  const itemsRead = itemsStatus === 'loaded' || itemsStatus === 'failed'
  const [choosingType, setChoosingType] = useState(false)
  const loadItems = useListStore((state) => state.loadItems)
  const restoreQueued = useListStore((state) => state.restoreQueued)
  const itemDone = useListStore((state) => state.itemDone)

  useEffect(() => {
    void loadListing(accountId, 'lists')
    void restoreQueued(accountId, collectionUri)
    void loadItems(accountId, collectionUri)
    return followOutbox((item) => {
      if (item.accountId === accountId && item.queueKey === collectionUri) void itemDone(item)
    })
  }, [accountId, collectionUri, loadListing, restoreQueued, loadItems, itemDone])

  if (list === null) return <CollectionMissing accountId={accountId} kind="lists" />

  const spec = listType ? LIST_TYPES[listType] : null
  return (
    <Pane layout="wide" className="list-pane">
      <header className="list-pane__header">
        <p className="list-pane__kind">{spec ? `List · ${spec.name}` : 'List'}</p>
        <h1 className="list-pane__title">{list.title}</h1>
        <div className="list-pane__actions">
          {list.homeUrl && (
            <Button variant="quiet" className="list-pane__web" onClick={() => void openInBrowser(list.homeUrl!)}>
              <Icon name="external" /> View the list on the web
            </Button>
          )}
          {listType && !choosingType && (
            <Button variant="quiet" onClick={() => setChoosingType(true)}>
              Not a list of {spec!.name.toLowerCase()}? Change its type
            </Button>
          )}
        </div>
      </header>
      {listType === null && !itemsRead ? null : listType === null || choosingType ? (
        <TypeChooser
          accountId={accountId}
          listUri={collectionUri}
          listTitle={list.title}
          current={listType}
          onChosen={() => setChoosingType(false)}
        />
      ) : (
        <AddForm key={listType} accountId={accountId} listUri={collectionUri} listTitle={list.title} listType={listType} />
      )}
      <PendingItems accountId={accountId} listUri={collectionUri} />
      <ListItems accountId={accountId} listUri={collectionUri} listType={listType} />
    </Pane>
  )
}

function TypeChooser({
  accountId,
  listUri,
  listTitle,
  current,
  onChosen,
}: {
  accountId: string
  listUri: string
  listTitle: string
  current: ListType | null
  onChosen(): void
}) {
  const chooseListType = useCollectionsStore((state) => state.chooseListType)
  const [choice, setChoice] = useState<ListType | null>(current)
  const name = useId()
  return (
    <form
      className="type-chooser"
      aria-label="What the list holds"
      onSubmit={(event) => {
        event.preventDefault()
        if (choice === null) return
        chooseListType(accountId, listUri, choice)
        onChosen()
      }}
    >
      <fieldset className="type-chooser__options">
        <legend className="type-chooser__legend">What does “{listTitle}” hold?</legend>
        <p className="type-chooser__hint">
          The server does not say. Blogdesk asks once, and remembers it with the first item you add.
        </p>
        {LIST_TYPE_ORDER.map((type) => (
          <label key={type} className={classNames('type-chooser__option', choice === type && 'type-chooser__option--chosen')}>
            <input type="radio" name={name} value={type} checked={choice === type} onChange={() => setChoice(type)} />
            {LIST_TYPES[type].name}
          </label>
        ))}
      </fieldset>
      <div className="type-chooser__actions">
        <Button type="submit" variant="primary" disabled={choice === null}>
          Continue
        </Button>
        {current !== null && (
          <Button variant="quiet" onClick={onChosen}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  )
}

function AddForm({ accountId, listUri, listTitle, listType }: { accountId: string; listUri: string; listTitle: string; listType: ListType }) {
  const spec = LIST_TYPES[listType]
  const add = useListStore((state) => state.add)
  const [values, setValues] = useState<Record<string, string>>({})
  const [rating, setRating] = useState<number | null>(null)
  const [notes, setNotes] = useState('')
  const [adding, setAdding] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const [lastAdded, setLastAdded] = useState<number | null>(null)
  const formRef = useRef<HTMLFormElement>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setAdding(true)
    setError(null)
    try {
      const operationId = await add({
        accountId,
        collectionUri: listUri,
        listType,
        fields: values,
        rating: spec.rated ? rating : null,
        notes: notes.trim() === '' ? null : notes,
      })
      setLastAdded(operationId)
      setValues({})
      setRating(null)
      setNotes('')
      // Ready for the next one.
      formRef.current?.querySelector('input')?.focus()
    } catch (failure) {
      setError(toApiError(failure))
    } finally {
      setAdding(false)
    }
  }

  return (
    // noValidate: Blogdesk says what is wrong in its own words, the same way for every field.
    <form ref={formRef} className="list-form" aria-label={`Add to ${listTitle}`} noValidate onSubmit={(event) => void submit(event)}>
      <h2 className="list-form__heading">Add a {spec.item}</h2>
      <div className="list-form__fields">
        {spec.fields.map((field) => (
          <TextField
            key={field.name}
            label={field.label}
            type={field.input}
            hint={field.hint}
            placeholder={field.placeholder}
            value={values[field.name] ?? ''}
            maxLength={2048}
            autoComplete="off"
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
          />
        ))}
      </div>
      {spec.rated && <StarRating value={rating} onChange={setRating} />}
      {spec.notes.multiline ? (
        <TextArea label={spec.notes.label} value={notes} maxLength={8192} onChange={(event) => setNotes(event.target.value)} />
      ) : (
        <TextField label={spec.notes.label} value={notes} maxLength={8192} onChange={(event) => setNotes(event.target.value)} />
      )}
      {error && <ErrorNotice error={error} />}
      <div className="list-form__actions">
        <Button type="submit" variant="primary" disabled={adding}>
          {adding ? 'Adding…' : `Add ${spec.item}`}
        </Button>
        <p className="list-form__note" role="status">
          {lastAdded === null ? 'Items wait in the outbox while the server cannot be reached.' : <AddedStatus operationId={lastAdded} />}
        </p>
      </div>
    </form>
  )
}

/** What became of the item just added, announced as it changes. */
function AddedStatus({ operationId }: { operationId: number }) {
  const item = useOutboxTracking((state) => state.items[operationId])
  switch (item?.state) {
    case undefined:
    case 'queued':
      return 'Queued: it goes to the server as soon as the server can be reached.'
    case 'sending':
      return 'Sending to the server…'
    case 'done':
      return `Added “${item.title}”; it is first in the list below.`
    case 'needs-attention':
    case 'conflict':
      return 'Not added: the server refused it. See why below.'
  }
}

function PendingItems({ accountId, listUri }: { accountId: string; listUri: string }) {
  const key = listKey(accountId, listUri)
  const added = useListStore((state) => state.added[key] ?? NO_ADDED)
  const forget = useListStore((state) => state.forget)
  const items = useOutboxTracking((state) => state.items)
  const retry = useOutboxTracking((state) => state.retry)
  const discard = useOutboxTracking((state) => state.discard)
  const headingId = useId()
  const pending = added.flatMap((entry) => {
    const item = items[entry.operationId]
    return item && item.state !== 'done' ? [item] : []
  })
  if (pending.length === 0) return null
  return (
    <section className="pending-items" aria-labelledby={headingId}>
      <h2 className="list-items__heading" id={headingId}>
        On their way
      </h2>
      <ul className="pending-items__list">
        {pending.map((item) => (
          <li key={item.id} className="pending-item">
            <p className="pending-item__title">{item.title}</p>
            <PendingState
              item={item}
              onRetry={() => void retry(item.id)}
              onDiscard={() => void discard(item.id).then(() => forget(key, item.id))}
            />
          </li>
        ))}
      </ul>
    </section>
  )
}

function PendingState({ item, onRetry, onDiscard }: { item: OutboxItem; onRetry(): void; onDiscard(): void }) {
  if (item.state === 'needs-attention' || item.state === 'conflict') {
    return <RefusedOperation item={item} title="Not added" fallback="The server did not take this item." onRetry={onRetry} onDiscard={onDiscard} />
  }
  return (
    <p className="pending-item__state">
      {item.state === 'sending' ? 'Sending…' : item.attempts > 0 ? 'Waiting to try again' : 'Queued'}
      {item.lastError && <span className="pending-item__note"> · {item.lastError}</span>}
    </p>
  )
}

function ListItems({ accountId, listUri, listType }: { accountId: string; listUri: string; listType: ListType | null }) {
  const key = listKey(accountId, listUri)
  const entries = useListStore((state) => state.items[key])
  const justAdded = useListStore((state) => state.justAdded[key])
  const loadItems = useListStore((state) => state.loadItems)
  const headingId = useId()
  const contents = entries?.status === 'loaded' ? entries.value : null
  return (
    <section className="list-items" aria-labelledby={headingId}>
      <CollectionContentsHeading kind="lists" contents={contents} headingId={headingId} />
      {(!entries || entries.status === 'loading') && <Spinner label="Loading the list’s items…" />}
      {entries?.status === 'failed' && <ErrorNotice error={entries.error} onRetry={() => void loadItems(accountId, listUri)} />}
      {contents &&
        (contents.entries.length === 0 ? (
          <p className="list-items__empty">{contents.source === 'sent' ? 'Nothing added from here yet.' : 'Nothing in this list yet.'}</p>
        ) : (
          <ol className="list-items__list">
            {contents.entries.map((entry, index) => (
              <Entry
                key={`${entry.issued ?? ''}-${index}`}
                entry={entry}
                listType={listType}
                justAdded={index === 0 && justAdded ? justAdded : null}
              />
            ))}
          </ol>
        ))}
    </section>
  )
}

function Entry({ entry, listType, justAdded }: { entry: ListEntry; listType: ListType | null; justAdded: AddedItem | null }) {
  const titleId = useId()
  // The server's computed title already says these; the rest are details worth a line each.
  const details = Object.entries(entry.fields)
    .filter(([name]) => name !== 'thumbnail')
    .sort(([a], [b]) => fieldOrder(a) - fieldOrder(b))
  const sent = justAdded?.sent ?? null
  // What the person typed comes back as typed; anything else the server looked up or worked out.
  const filledIn = (name: string, value: string) => sent !== null && (sent[name]?.trim() ?? '') !== value
  const anyFilledIn = details.some(([name, value]) => filledIn(name, value))
  return (
    <li className={classNames('list-entry', justAdded && 'list-entry--new')} aria-labelledby={titleId}>
      {entry.fields['thumbnail'] && <img className="list-entry__thumbnail" src={entry.fields['thumbnail']} alt="" loading="lazy" />}
      <div className="list-entry__body">
        <div className="list-entry__head">
          <h3 className="list-entry__title" id={titleId}>
            {entry.title || 'Untitled'}
          </h3>
          {justAdded && <span className="list-entry__badge">Just added</span>}
          {entry.rating !== null && <Stars rating={entry.rating} />}
        </div>
        {details.length > 0 && (
          <dl className="list-entry__fields">
            {details.map(([name, value]) => (
              <div key={name} className={classNames('list-entry__field', filledIn(name, value) && 'list-entry__field--filled')}>
                <dt>{FIELD_LABELS[name] ?? name}</dt>
                <dd>
                  {value}
                  {filledIn(name, value) && <span className="list-entry__filled"> · filled in by the server</span>}
                </dd>
              </div>
            ))}
          </dl>
        )}
        {sent !== null && !anyFilledIn && (listType === 'link' || listType === 'person') && (
          <p className="list-entry__note">The server found nothing to add from the web: it kept what you gave.</p>
        )}
        {entry.notes && <p className="list-entry__notes">{entry.notes}</p>}
        {entry.issued && <p className="list-entry__date">Added {formatDay(entry.issued)}</p>}
      </div>
    </li>
  )
}

/** Details in the order the forms ask for them; any the server adds that Blogdesk does not know of, last. */
function fieldOrder(name: string): number {
  const index = FIELD_ORDER.indexOf(name)
  return index === -1 ? FIELD_ORDER.length : index
}

const FIELD_ORDER = Object.keys(FIELD_LABELS)
