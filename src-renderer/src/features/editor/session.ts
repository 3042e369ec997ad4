// One open draft's saving: changes are written to the local draft a moment after typing pauses ("Saved locally"),
// at once on Ctrl/Cmd+S, before publishing, and when the editor closes. Saves go one at a time, in order.
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { DraftEdit, DraftSummary } from '../../../../src-shared/contract'
import { api, toApiError, type ApiError } from '../../lib/api'
import { AfterPause } from './pause'
import { useDraftsStore } from './store'

/** Typing that pauses this long is saved: well within the second the person may wait to see "Saved locally". */
export const SAVE_PAUSE_MS = 600

export type SaveStatus =
  | { kind: 'saved'; at: string | null }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'failed'; error: ApiError }

export interface SessionState {
  save: SaveStatus
  publishing: boolean
  publishError: ApiError | null
}

export class DraftSession {
  readonly draftId: string
  readonly state: StoreApi<SessionState>
  #readContent: (() => string) | null = null
  #title: string | null = null
  #categories: string[] | null = null
  #properties: Pick<DraftEdit, 'summary' | 'issued'> | null = null
  #contentChanged = false
  readonly #autosave = new AfterPause(SAVE_PAUSE_MS, () => void this.flush())
  #saving: Promise<void> | null = null

  constructor(draftId: string, savedAt: string | null) {
    this.draftId = draftId
    this.state = createStore<SessionState>()(() => ({ save: { kind: 'saved', at: savedAt }, publishing: false, publishError: null }))
  }

  /** Where the post's HTML is read from when a save goes out (the editor, or its source view); until the editor detaches. */
  readContentFrom(read: () => string): () => void {
    this.#readContent = read
    return () => {
      if (this.#readContent !== read) return
      // The editor is going: what it holds now is what the last save sends.
      const last = read()
      this.#readContent = () => last
    }
  }

  get hasChanges(): boolean {
    return this.#title !== null || this.#categories !== null || this.#properties !== null || this.#contentChanged
  }

  /** The excerpt or the publish date changed (PostProperties). */
  propertiesChanged(properties: Pick<DraftEdit, 'summary' | 'issued'>): void {
    this.#properties = { ...this.#properties, ...properties }
    this.#changed()
  }

  titleChanged(title: string): void {
    this.#title = title
    this.#changed()
  }

  categoriesChanged(categories: string[]): void {
    this.#categories = categories
    this.#changed()
  }

  contentChanged(): void {
    this.#contentChanged = true
    this.#changed()
  }

  /** Saves what has changed now; resolves true once everything is saved, false when saving failed (see `state`). */
  async flush(): Promise<boolean> {
    this.#autosave.cancel()
    while (this.#saving) await this.#saving
    if (!this.hasChanges) return this.state.getState().save.kind !== 'failed'
    const edit: DraftEdit = { draftId: this.draftId }
    if (this.#title !== null) edit.title = this.#title
    if (this.#categories !== null) edit.categories = this.#categories
    if (this.#properties !== null) Object.assign(edit, this.#properties)
    if (this.#contentChanged && this.#readContent) {
      edit.content = this.#readContent()
      this.#contentChanged = false
    }
    const properties = this.#properties
    this.#title = null
    this.#categories = null
    this.#properties = null
    this.#set({ save: { kind: 'saving' } })
    let saved = false
    const saving = api.drafts.save(edit).then(
      (summary: DraftSummary) => {
        useDraftsStore.getState().receive(summary)
        saved = true
        this.#set({ save: this.hasChanges ? { kind: 'unsaved' } : { kind: 'saved', at: summary.updatedAt } })
        if (this.hasChanges) this.#autosave.poke()
      },
      (error: unknown) => {
        // What did not reach the draft is still to be saved; newer changes made meanwhile win.
        this.#title ??= edit.title ?? null
        this.#categories ??= edit.categories ?? null
        this.#properties = properties && { ...properties, ...this.#properties }
        this.#contentChanged ||= edit.content !== undefined
        this.#set({ save: { kind: 'failed', error: toApiError(error) } })
      },
    )
    this.#saving = saving
    await saving
    if (this.#saving === saving) this.#saving = null
    return saved && !this.hasChanges
  }

  /** Saves, then queues the draft for publishing; resolves once the main process has it queued on disk. */
  async publish(): Promise<void> {
    if (this.state.getState().publishing) return
    this.#set({ publishing: true, publishError: null })
    try {
      if (!(await this.flush())) {
        const { save } = this.state.getState()
        if (save.kind === 'failed') this.#set({ publishError: save.error })
        return
      }
      useDraftsStore.getState().receive(await api.drafts.publish({ draftId: this.draftId }))
    } catch (error) {
      this.#set({ publishError: toApiError(error) })
    } finally {
      this.#set({ publishing: false })
    }
  }

  /** The editor is closing: what is left goes out now, without anyone waiting for it. */
  close(): void {
    if (this.hasChanges || this.#autosave.pending) void this.flush()
  }

  #changed(): void {
    // Told once per burst of typing, not per keystroke: a keystroke must not make React draw anything.
    const { kind } = this.state.getState().save
    if (kind === 'saved' || kind === 'failed') this.#set({ save: { kind: 'unsaved' } })
    this.#autosave.poke()
  }

  #set(partial: Partial<SessionState>): void {
    this.state.setState(partial)
  }
}
