// An album's drop zone: the photos dropped or picked, each read on this computer first (thumbnail, date, camera,
// place) and refused in words when it cannot be sent; then queued through the outbox, which sends them when the
// server can be reached and keeps them, with what they showed, across restarts. Also what the album holds: its
// photos where the server lists them, else those Blogdesk sent to it.
import { create } from 'zustand'
import type { AlbumPhoto, CollectionContents, PhotoPreview } from '../../../../src-shared/contract'
import { api, ApiError, toApiError } from '../../lib/api'
import { useOutboxTracking } from './outboxTracking'
import type { Loadable } from './store'

export type UploadPhase =
  /** Its headers are being read. */
  | 'reading'
  /** It cannot be sent: `error` says why. */
  | 'refused'
  /** Previewed, waiting for Upload; `error` may say why the last Upload did not take it. */
  | 'ready'
  | 'queueing'
  /** In the outbox: `operationId` follows it. */
  | 'queued'

export interface UploadRow {
  key: string
  name: string
  /** Where the file is on this computer; empty when it has none (dragged from a web page). */
  path: string
  phase: UploadPhase
  preview: PhotoPreview | null
  error: ApiError | null
  title: string
  caption: string
  stripGps: boolean
  operationId: number | null
}

export type PhotoChanges = Partial<Pick<UploadRow, 'title' | 'caption' | 'stripGps'>>

interface AlbumState {
  /** By album key (albumKey). */
  uploads: Partial<Record<string, UploadRow[]>>
  photos: Partial<Record<string, Loadable<CollectionContents<AlbumPhoto>>>>
  /** Files dropped on the album or picked for it. */
  addFiles(accountId: string, albumUri: string, files: readonly File[]): Promise<void>
  edit(albumKey: string, rowKey: string, changes: PhotoChanges): void
  remove(albumKey: string, rowKey: string): void
  /** Queues every previewed photo; resolves once each is in the outbox (or refused). */
  uploadAll(accountId: string, albumUri: string): Promise<void>
  /** Shows the album's photos still in the outbox from before (after a restart). */
  restoreQueued(accountId: string, albumUri: string): Promise<void>
  clearFinished(albumKey: string): void
  loadPhotos(accountId: string, albumUri: string): Promise<void>
}

export function albumKey(accountId: string, albumUri: string): string {
  return `${accountId}\n${albumUri}`
}

let nextRowKey = 1
const PREVIEWS_AT_ONCE = 3

export const useAlbumStore = create<AlbumState>()((set, get) => {
  function rowsOf(key: string): UploadRow[] {
    return get().uploads[key] ?? []
  }

  function update(key: string, rowKey: string, change: (row: UploadRow) => UploadRow) {
    set((state) => ({ uploads: { ...state.uploads, [key]: (state.uploads[key] ?? []).map((row) => (row.key === rowKey ? change(row) : row)) } }))
  }

  async function readPreview(key: string, row: UploadRow) {
    if (row.path === '') {
      const error = new ApiError(
        'invalid-argument',
        `“${row.name}” is not a file on this computer (it may have come from a web page). Save it to a folder first, then add the saved file.`,
      )
      update(key, row.key, (current) => ({ ...current, phase: 'refused', error }))
      return
    }
    try {
      const preview = await api.photos.preview({ path: row.path })
      update(key, row.key, (current) => ({ ...current, phase: 'ready', preview }))
    } catch (error) {
      update(key, row.key, (current) => ({ ...current, phase: 'refused', error: toApiError(error) }))
    }
  }

  return {
    uploads: {},
    photos: {},

    async addFiles(accountId, albumUri, files) {
      const key = albumKey(accountId, albumUri)
      const rows = files.map(
        (file): UploadRow => ({
          key: `photo-${nextRowKey++}`,
          name: file.name,
          path: api.files.pathOf(file),
          phase: 'reading',
          preview: null,
          error: null,
          title: titleFromName(file.name),
          caption: '',
          stripGps: true,
          operationId: null,
        }),
      )
      set((state) => ({ uploads: { ...state.uploads, [key]: [...(state.uploads[key] ?? []), ...rows] } }))
      // A few at a time: a hundred photos dropped at once are read without decoding a hundred at once.
      const waiting = [...rows]
      const reader = async () => {
        for (let row = waiting.shift(); row; row = waiting.shift()) await readPreview(key, row)
      }
      await Promise.all(Array.from({ length: PREVIEWS_AT_ONCE }, reader))
    },

    edit(key, rowKey, changes) {
      update(key, rowKey, (row) => ({ ...row, ...changes, error: row.phase === 'ready' ? null : row.error }))
    },

    remove(key, rowKey) {
      set((state) => ({ uploads: { ...state.uploads, [key]: rowsOf(key).filter((row) => row.key !== rowKey) } }))
    },

    async uploadAll(accountId, albumUri) {
      const key = albumKey(accountId, albumUri)
      // One at a time, in the order shown: the album's queue sends them in that order.
      for (const row of rowsOf(key).filter((candidate) => candidate.phase === 'ready')) {
        if (row.title.trim() === '') {
          const error = new ApiError('invalid-argument', 'Give this photo a title: the album shows it with the photo.')
          update(key, row.key, (current) => ({ ...current, error }))
          continue
        }
        update(key, row.key, (current) => ({ ...current, phase: 'queueing', error: null }))
        try {
          const item = await api.photos.add({
            accountId,
            collectionUri: albumUri,
            path: row.path,
            title: row.title.trim(),
            caption: row.caption.trim() === '' ? null : row.caption.trim(),
            stripGps: row.stripGps,
          })
          useOutboxTracking.getState().track(item)
          update(key, row.key, (current) => ({ ...current, phase: 'queued', operationId: item.id }))
        } catch (error) {
          update(key, row.key, (current) => ({ ...current, phase: 'ready', error: toApiError(error) }))
        }
      }
    },

    async restoreQueued(accountId, albumUri) {
      const key = albumKey(accountId, albumUri)
      const [open, queued] = await Promise.all([
        useOutboxTracking.getState().openFor(albumUri, 'photo'),
        api.photos.queued({ accountId, collectionUri: albumUri }),
      ])
      const previews = new Map(queued.map(({ operationId, preview }) => [operationId, preview]))
      const shown = new Set(rowsOf(key).map((row) => row.operationId))
      const restored = open
        .filter((item) => item.accountId === accountId && !shown.has(item.id))
        .map(
          (item): UploadRow => ({
            key: `photo-${nextRowKey++}`,
            name: item.title,
            path: '',
            phase: 'queued',
            preview: previews.get(item.id) ?? null,
            error: null,
            title: item.title,
            caption: '',
            stripGps: true,
            operationId: item.id,
          }),
        )
      if (restored.length > 0) set((state) => ({ uploads: { ...state.uploads, [key]: [...restored, ...rowsOf(key)] } }))
    },

    clearFinished(key) {
      const { items } = useOutboxTracking.getState()
      const finished = (row: UploadRow) => row.operationId !== null && items[row.operationId]?.state === 'done'
      set((state) => ({ uploads: { ...state.uploads, [key]: rowsOf(key).filter((row) => !finished(row)) } }))
    },

    async loadPhotos(accountId, albumUri) {
      const key = albumKey(accountId, albumUri)
      if (get().photos[key]?.status !== 'loaded') set((state) => ({ photos: { ...state.photos, [key]: { status: 'loading' } } }))
      try {
        const photos = await api.albums.photos({ accountId, collectionUri: albumUri })
        set((state) => ({ photos: { ...state.photos, [key]: { status: 'loaded', value: photos } } }))
      } catch (error) {
        set((state) => ({ photos: { ...state.photos, [key]: { status: 'failed', error: toApiError(error) } } }))
      }
    },
  }
})

/** "tagus-sunset.jpg" becomes "tagus-sunset": a title the person can keep or change. */
function titleFromName(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}
