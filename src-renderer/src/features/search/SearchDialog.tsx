import { useEffect, useId, useRef, type KeyboardEvent } from 'react'
import { shortcuts, type MarkedText, type SearchHit } from '../../../../src-shared/contract'
import { matchesKeys, shortcut } from '../../lib/keys'
import { ErrorNotice, Spinner } from '../../ui'
import { useAccountsStore } from '../accounts'
import { useAppCommand } from '../editor'
import { accountOfView, useNavigation } from '../navigation'
import { useSearchStore } from './store'
import './search.css'
import { dateFormat } from '../../lib/dateFormat'

const dayFormat = dateFormat({ day: 'numeric', month: 'short', year: 'numeric' })

/** "Control+Shift+F" as aria-keyshortcuts says it; ⇧⌘F on a Mac. */
export const SEARCH_KEYS = shortcut(shortcuts.search.keys)

/**
 * Search in the drafts and posts of an account (Ctrl+Shift+F, Edit › Search All Posts…, or Search in the sidebar): a
 * modal dialog whose field takes the words, the results below with the matched words marked. ↓ and ↑ move through
 * the results, Enter opens one in the editor at its first match, Escape closes.
 */
export function SearchDialog() {
  const open = useSearchStore((state) => state.open)
  const hide = useSearchStore((state) => state.hide)
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useSearchShortcut()

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) {
      element.showModal()
      // The words typed last are selected, to search again or to type over.
      element.querySelector<HTMLInputElement>('.search__input')?.select()
    }
    if (!open && element.open) element.close()
  }, [open])

  return (
    <dialog ref={dialog} className="dialog search-dialog" aria-labelledby={titleId} onClose={hide}>
      {open && <SearchForm titleId={titleId} />}
    </dialog>
  )
}

function SearchForm({ titleId }: { titleId: string }) {
  const accountId = useSearchStore((state) => state.accountId)
  const query = useSearchStore((state) => state.query)
  const answer = useSearchStore((state) => state.answer)
  const openError = useSearchStore((state) => state.openError)
  const setQuery = useSearchStore((state) => state.setQuery)
  const setAccount = useSearchStore((state) => state.setAccount)
  const hide = useSearchStore((state) => state.hide)
  const accounts = useAccountsStore((state) => state.accounts)
  const results = useRef<HTMLUListElement>(null)
  const statusId = useId()
  const field = useRef<HTMLInputElement>(null)

  const shown = answer.status === 'loaded' ? answer.value : answer.status === 'searching' ? answer.shown : null
  const hits = shown?.hits ?? []

  function moveFocus(event: KeyboardEvent, from: number) {
    const buttons = [...(results.current?.querySelectorAll<HTMLButtonElement>('.search-hit') ?? [])]
    const to = event.key === 'ArrowDown' ? from + 1 : event.key === 'ArrowUp' ? from - 1 : null
    if (to === null || buttons.length === 0) return
    event.preventDefault()
    if (to < 0) field.current?.focus()
    else buttons[Math.min(to, buttons.length - 1)]?.focus()
  }

  return (
    <div className="search" role="search" aria-labelledby={titleId}>
      <div className="search__header">
        <h2 className="search__title" id={titleId}>
          Search drafts and posts
        </h2>
        <button type="button" className="search__close" aria-label="Close search" onClick={hide}>
          ×
        </button>
      </div>
      <div className="search__fields">
        <input
          ref={field}
          className="search__input"
          type="search"
          aria-label="Words to find"
          aria-describedby={statusId}
          placeholder="Words in a title or text"
          spellCheck={false}
          autoComplete="off"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && hits[0]) {
              event.preventDefault()
              void useSearchStore.getState().openHit(hits[0])
            } else moveFocus(event, -1)
          }}
        />
        {accounts.status === 'loaded' && accounts.value.length > 1 && (
          <select className="search__account" aria-label="Account" value={accountId ?? ''} onChange={(event) => setAccount(event.target.value)}>
            {accounts.value.map((account) => (
              <option key={account.id} value={account.id}>
                {account.label}
              </option>
            ))}
          </select>
        )}
      </div>
      <p className="search__status" id={statusId} role="status">
        {statusOf(query, answer.status === 'failed' ? null : shown)}
      </p>
      {answer.status === 'searching' && shown === null && <Spinner label="Searching…" className="search__spinner" />}
      {answer.status === 'failed' && <ErrorNotice error={answer.error} className="search__notice" />}
      {openError && <ErrorNotice error={openError} className="search__notice" />}
      {hits.length > 0 && (
        <ul ref={results} className="search__results" aria-label="Results">
          {hits.map((hit, index) => (
            <li key={hit.draftId ?? hit.editUri}>
              <Hit hit={hit} onKeyDown={(event) => moveFocus(event, index)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function statusOf(query: string, shown: { hits: SearchHit[]; more: boolean } | null): string {
  if (query.trim() === '') return 'Type words from the title or the text of a draft or a published post. Posts are found once their weblog’s posts have been listed here.'
  if (shown === null) return ''
  if (shown.hits.length === 0) return `Nothing here contains “${query.trim()}”. Check the spelling, try fewer words, or list the weblog’s posts to search them too.`
  const count = shown.hits.length === 1 ? '1 result' : `${shown.hits.length} results`
  return shown.more ? `The first ${count}; more match. Add a word to narrow them.` : `${count}. Press ↓ to go through them, Enter to open one.`
}

function Hit({ hit, onKeyDown }: { hit: SearchHit; onKeyDown(event: KeyboardEvent): void }) {
  const openHit = useSearchStore((state) => state.openHit)
  const weblogTitle = useAccountsStore((state) => {
    const weblogs = state.weblogsByAccount[hit.accountId]
    return weblogs?.status === 'loaded' ? weblogs.value.find((weblog) => weblog.postUri === hit.weblogPostUri)?.title : undefined
  })
  const kind = hit.kind === 'draft' ? 'Draft' : hit.draftId === null ? 'Published' : 'Published, edited here'
  return (
    <button type="button" className="search-hit" onClick={() => void openHit(hit)} onKeyDown={onKeyDown}>
      <span className="search-hit__head">
        <span className={`search-hit__kind search-hit__kind--${hit.kind}`}>{kind}</span>
        <span className="search-hit__title">{hit.title.length > 0 ? <Marked text={hit.title} /> : 'Untitled'}</span>
      </span>
      {hit.snippet.length > 0 && (
        <span className="search-hit__snippet">
          <Marked text={hit.snippet} />
        </span>
      )}
      <span className="search-hit__meta">
        {[weblogTitle, hit.at && dayFormat.format(new Date(hit.at))].filter(Boolean).join(' · ')}
      </span>
    </button>
  )
}

function Marked({ text }: { text: MarkedText }) {
  return text.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))
}

/**
 * Ctrl+Shift+F (⇧⌘F) anywhere in the window, or Edit › Search All Posts…, opens search for the account shown (the
 * menu's accelerator and the page's key may both deliver the same press: showing it again changes nothing).
 */
function useSearchShortcut(): void {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!matchesKeys(event, shortcuts.search.keys)) return
      const accountId = searchableAccount()
      if (accountId === null) return
      event.preventDefault()
      event.stopPropagation()
      useSearchStore.getState().show(accountId)
    }
    window.addEventListener('keydown', onKeyDown, true)
    return () => window.removeEventListener('keydown', onKeyDown, true)
  }, [])
  useAppCommand((command) => {
    const accountId = command === 'search' ? searchableAccount() : null
    if (accountId !== null) useSearchStore.getState().show(accountId)
  })
}

/** The account shown, or the first one. */
export function searchableAccount(): string | null {
  const { accounts } = useAccountsStore.getState()
  if (accounts.status !== 'loaded' || accounts.value.length === 0) return null
  return accountOfView(useNavigation.getState().view) ?? useSearchStore.getState().accountId ?? accounts.value[0]!.id
}
