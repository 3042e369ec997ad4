import { useEffect, useId, useRef, useState, type DragEvent } from 'react'
import { openInBrowser } from '../../lib/links'
import { Alert, Button, ErrorNotice, Icon, Pane, Spinner, TextField, classNames } from '../../ui'
import { albumKey, useAlbumStore, type UploadRow } from './albumStore'
import { formatBytes, formatPosition, formatShare, formatTaken } from './format'
import { followOutbox, useOutboxTracking } from './outboxTracking'
import { CollectionContentsHeading } from './CollectionContentsHeading'
import { CollectionMissing } from './CollectionMissing'
import { PhotoGrid } from './PhotoGrid'
import { RefusedOperation } from './RefusedOperation'
import { useCollection, useCollectionsStore } from './store'
import './album.css'

const NO_ROWS: UploadRow[] = []

/** An album: a drop zone for new photos, their uploads as they go, and the photos it holds. */
export function AlbumPane({ accountId, collectionUri }: { accountId: string; collectionUri: string }) {
  const album = useCollection(accountId, 'albums', collectionUri)
  const loadListing = useCollectionsStore((state) => state.load)
  const restoreQueued = useAlbumStore((state) => state.restoreQueued)
  const loadPhotos = useAlbumStore((state) => state.loadPhotos)

  useEffect(() => {
    void loadListing(accountId, 'albums')
    void restoreQueued(accountId, collectionUri)
    void loadPhotos(accountId, collectionUri)
    return followOutbox((item) => {
      if (item.accountId === accountId && item.queueKey === collectionUri) void loadPhotos(accountId, collectionUri)
    })
  }, [accountId, collectionUri, loadListing, restoreQueued, loadPhotos])

  if (album === null) return <CollectionMissing accountId={accountId} kind="albums" />

  return (
    <Pane layout="wide" className="album-pane">
      <header className="album-pane__header">
        <p className="album-pane__kind">Photo album</p>
        <h1 className="album-pane__title">{album.title}</h1>
        {album.homeUrl && (
          <Button variant="quiet" className="album-pane__web" onClick={() => void openInBrowser(album.homeUrl!)}>
            <Icon name="external" /> View the album on the web
          </Button>
        )}
      </header>
      <DropZone accountId={accountId} albumUri={collectionUri} />
      <Uploads accountId={accountId} albumUri={collectionUri} />
      <AlbumPhotos accountId={accountId} albumUri={collectionUri} />
    </Pane>
  )
}

function DropZone({ accountId, albumUri }: { accountId: string; albumUri: string }) {
  const addFiles = useAlbumStore((state) => state.addFiles)
  const input = useRef<HTMLInputElement>(null)
  // dragenter and dragleave fire for every child the pointer crosses: the zone is active while any of them holds it.
  const depth = useRef(0)
  const [active, setActive] = useState(false)
  const hintId = useId()

  function take(files: FileList | null) {
    if (!files || files.length === 0) return
    void addFiles(accountId, albumUri, Array.from(files))
  }

  const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files')

  return (
    <section
      className={classNames('drop-zone', active && 'drop-zone--active')}
      aria-label="Add photos"
      aria-describedby={hintId}
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return
        event.preventDefault()
        depth.current += 1
        setActive(true)
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return
        event.preventDefault()
        event.dataTransfer.dropEffect = 'copy'
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1)
        if (depth.current === 0) setActive(false)
      }}
      onDrop={(event) => {
        event.preventDefault()
        depth.current = 0
        setActive(false)
        take(event.dataTransfer.files)
      }}
    >
      <span className="drop-zone__icon" aria-hidden="true">
        <Icon name="album" />
      </span>
      <p className="drop-zone__title">{active ? 'Drop to add these photos' : 'Drag photos here from your desktop'}</p>
      <p className="drop-zone__hint" id={hintId}>
        Blogdesk reads when, where and with what camera each was taken before anything is sent.
      </p>
      <Button onClick={() => input.current?.click()}>Choose photos…</Button>
      <input
        ref={input}
        type="file"
        multiple
        accept="image/*"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Choose photos"
        onChange={(event) => {
          take(event.target.files)
          event.target.value = ''
        }}
      />
    </section>
  )
}

function Uploads({ accountId, albumUri }: { accountId: string; albumUri: string }) {
  const key = albumKey(accountId, albumUri)
  const rows = useAlbumStore((state) => state.uploads[key] ?? NO_ROWS)
  const uploadAll = useAlbumStore((state) => state.uploadAll)
  const clearFinished = useAlbumStore((state) => state.clearFinished)
  const items = useOutboxTracking((state) => state.items)
  const progress = useOutboxTracking((state) => state.progress)
  const headingId = useId()
  if (rows.length === 0) return null

  const ready = rows.filter((row) => row.phase === 'ready').length
  const queueing = rows.some((row) => row.phase === 'queueing')
  const sent = rows.filter((row) => row.operationId !== null)
  const done = sent.filter((row) => items[row.operationId!]?.state === 'done').length
  let bytesTotal = 0
  let bytesSent = 0
  for (const row of sent) {
    const item = items[row.operationId!]
    const step = progress[row.operationId!]
    const size = row.preview?.size ?? step?.total ?? 0
    bytesTotal += size
    bytesSent += item?.state === 'done' ? size : Math.min(step?.sent ?? 0, size)
  }

  return (
    <section className="uploads" aria-labelledby={headingId}>
      <h2 className="uploads__heading" id={headingId}>
        To upload
      </h2>
      <ul className="uploads__list">
        {rows.map((row) => (
          <UploadItem key={row.key} albumKey={key} row={row} />
        ))}
      </ul>
      <div className="uploads__bar">
        <div className="uploads__total">
          {sent.length > 0 ? (
            <>
              <p className="uploads__summary" aria-live="polite">
                {done === sent.length
                  ? `${done === 1 ? 'The photo is' : `All ${done} photos are`} in the album.`
                  : `${done} of ${sent.length} uploaded${bytesTotal > 0 ? ` · ${formatShare(bytesSent, bytesTotal)}` : ''}`}
              </p>
              <progress className="uploads__progress" aria-label="All uploads" max={Math.max(bytesTotal, 1)} value={bytesSent} />
            </>
          ) : (
            <p className="uploads__summary">Photos wait in the outbox until the server can be reached, even if Blogdesk is closed meanwhile.</p>
          )}
        </div>
        {done > 0 && (
          <Button variant="quiet" onClick={() => clearFinished(key)}>
            Clear uploaded
          </Button>
        )}
        <Button variant="primary" disabled={ready === 0 || queueing} onClick={() => void uploadAll(accountId, albumUri)}>
          {ready === 0 ? 'Upload' : ready === 1 ? 'Upload 1 photo' : `Upload ${ready} photos`}
        </Button>
      </div>
    </section>
  )
}

function UploadItem({ albumKey: key, row }: { albumKey: string; row: UploadRow }) {
  const edit = useAlbumStore((state) => state.edit)
  const remove = useAlbumStore((state) => state.remove)
  const { preview } = row
  const editable = row.phase === 'ready'
  return (
    <li className={classNames('upload', `upload--${row.phase}`)} aria-label={row.name}>
      <div className="upload__thumb">
        {preview?.thumbnailUrl ? <img src={preview.thumbnailUrl} alt="" /> : <Icon name="album" />}
      </div>
      <div className="upload__body">
        <div className="upload__head">
          <p className="upload__name">{row.name}</p>
          {preview && <p className="upload__size">{formatBytes(preview.size)}</p>}
          {(row.phase === 'refused' || editable) && (
            <Button variant="quiet" className="upload__remove" aria-label={`Remove ${row.name}`} onClick={() => remove(key, row.key)}>
              Remove
            </Button>
          )}
        </div>
        {row.phase === 'reading' && <Spinner label="Reading the photo’s details…" />}
        {row.phase === 'refused' && row.error && (
          <Alert tone="error" title="Cannot be added">
            <p>{row.error.message}</p>
          </Alert>
        )}
        {preview && (
          <dl className="upload__facts">
            <div>
              <dt>Taken</dt>
              <dd>{preview.takenAt ? formatTaken(preview.takenAt) : 'Not recorded'}</dd>
            </div>
            <div>
              <dt>Camera</dt>
              <dd>{preview.camera ?? 'Not recorded'}</dd>
            </div>
            <div>
              <dt>Location</dt>
              <dd>{preview.location ? formatPosition(preview.location) : 'Not recorded'}</dd>
            </div>
          </dl>
        )}
        {(editable || row.phase === 'queueing') && (
          <div className="upload__fields">
            <TextField
              label="Title"
              value={row.title}
              required
              maxLength={255}
              disabled={!editable}
              onChange={(event) => edit(key, row.key, { title: event.target.value })}
            />
            <TextField
              label="Caption"
              value={row.caption}
              placeholder="Optional"
              maxLength={4096}
              disabled={!editable}
              onChange={(event) => edit(key, row.key, { caption: event.target.value })}
            />
            {preview?.location && (
              <label className="upload__gps">
                <input
                  type="checkbox"
                  checked={row.stripGps}
                  disabled={!editable}
                  onChange={(event) => edit(key, row.key, { stripGps: event.target.checked })}
                />
                Remove location (GPS) before upload
              </label>
            )}
            {row.error && <ErrorNotice error={row.error} />}
          </div>
        )}
        {row.operationId !== null && <UploadStatus operationId={row.operationId} name={row.name} onDiscarded={() => remove(key, row.key)} />}
      </div>
    </li>
  )
}

function UploadStatus({ operationId, name, onDiscarded }: { operationId: number; name: string; onDiscarded: () => void }) {
  const item = useOutboxTracking((state) => state.items[operationId])
  const step = useOutboxTracking((state) => state.progress[operationId])
  const retry = useOutboxTracking((state) => state.retry)
  const discard = useOutboxTracking((state) => state.discard)
  if (!item) return null
  switch (item.state) {
    case 'queued':
      return (
        <div className="upload__status">
          <p className="upload__state">{item.attempts > 0 ? 'Waiting to try again' : 'Queued'}</p>
          {item.lastError && <p className="upload__note">{item.lastError}</p>}
        </div>
      )
    case 'sending':
      return (
        <div className="upload__status">
          <p className="upload__state">Uploading… {step ? formatShare(step.sent, step.total) : ''}</p>
          <progress className="upload__progress" aria-label={`Uploading ${name}`} max={step?.total ?? 1} value={step?.sent ?? 0} />
        </div>
      )
    case 'done':
      return (
        <div className="upload__status upload__status--done">
          <p className="upload__state">Uploaded</p>
          {item.resultUrl && (
            <Button variant="quiet" onClick={() => void openInBrowser(item.resultUrl!)}>
              <Icon name="external" /> Open its page
            </Button>
          )}
        </div>
      )
    case 'needs-attention':
    case 'conflict':
      return (
        <RefusedOperation
          item={item}
          title="Not uploaded"
          fallback="The server did not take this photo."
          onRetry={() => void retry(operationId)}
          onDiscard={() => void discard(operationId).then(onDiscarded)}
        />
      )
  }
}

function AlbumPhotos({ accountId, albumUri }: { accountId: string; albumUri: string }) {
  const photos = useAlbumStore((state) => state.photos[albumKey(accountId, albumUri)])
  const loadPhotos = useAlbumStore((state) => state.loadPhotos)
  const headingId = useId()
  const contents = photos?.status === 'loaded' ? photos.value : null
  return (
    <section className="album-photos" aria-labelledby={headingId}>
      <CollectionContentsHeading kind="albums" contents={contents} headingId={headingId} />
      {(!photos || photos.status === 'loading') && <Spinner label="Loading the album’s photos…" />}
      {photos?.status === 'failed' && <ErrorNotice error={photos.error} onRetry={() => void loadPhotos(accountId, albumUri)} />}
      {contents &&
        (contents.entries.length === 0 ? (
          <p className="album-photos__empty">{contents.source === 'sent' ? 'No photos sent from here yet.' : 'No photos in this album yet.'}</p>
        ) : (
          <PhotoGrid photos={contents.entries} label="The album’s photos" showThumbnails={contents.problem === null} />
        ))}
    </section>
  )
}
