import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { toApiError } from '../../lib/apiError'
import { openInBrowser } from '../../lib/links'
import { classNames } from '../../ui'
import { useAccountsStore } from '../accounts'
import { formatExact, formatWhen } from './dates'
import { usePostsStore, weblogKey } from './store'
import './category-picker.css'

export interface CategoryPickerProps {
  accountId: string
  weblogPostUri: string
  /** The chosen category names, in the order chosen. */
  value: string[]
  onChange(next: string[]): void
}

/**
 * The weblog's categories as a searchable multi-select (an ARIA combobox over a multi-selectable listbox): type to
 * filter, arrows to move, Enter to choose or unchoose, Backspace on an empty field to drop the last chosen one,
 * Escape to close. Answers from the cache at once and asks the server again when opened.
 */
export function CategoryPicker({ accountId, weblogPostUri, value, onChange }: CategoryPickerProps) {
  const key = weblogKey({ accountId, weblogPostUri })
  const view = usePostsStore((state) => state.categories[key])
  const loadCategories = usePostsStore((state) => state.loadCategories)
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [activeIndex, setActiveIndex] = useState(0)
  const [announcement, setAnnouncement] = useState('')
  const [linkError, setLinkError] = useState<string | null>(null)
  const homeUrl = useAccountsStore((state) => {
    const weblogs = state.weblogsByAccount[accountId]
    return weblogs?.status === 'loaded' ? (weblogs.value.find((weblog) => weblog.postUri === weblogPostUri)?.homeUrl ?? null) : null
  })
  const input = useRef<HTMLInputElement>(null)
  const baseId = useId()
  const labelId = `${baseId}-label`
  const listboxId = `${baseId}-listbox`
  const notesId = `${baseId}-notes`
  const optionId = (index: number) => `${baseId}-option-${index}`

  useEffect(() => {
    void loadCategories({ accountId, weblogPostUri }, { refresh: false })
  }, [accountId, weblogPostUri, loadCategories])

  const listing = view?.listing ?? null
  const available = listing?.categories ?? []
  const onServer = new Set(available.map(fold))
  // Only a list the server actually gave can tell that a chosen category is gone.
  const missing = listing?.fetchedAt ? value.filter((name) => !onServer.has(fold(name))) : []
  const chosen = new Set(value.map(fold))
  const filter = fold(query.trim())
  const options = available.filter((name) => fold(name).includes(filter))
  const active = Math.min(activeIndex, Math.max(options.length - 1, 0))
  const showList = open && options.length > 0

  useEffect(() => {
    if (showList) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' })
  })

  function openList() {
    setOpen(true)
    void loadCategories({ accountId, weblogPostUri }, { refresh: true })
  }

  function toggle(name: string) {
    const isChosen = chosen.has(fold(name))
    onChange(isChosen ? value.filter((existing) => fold(existing) !== fold(name)) : [...value, name])
    setAnnouncement(isChosen ? `${name} removed.` : `${name} chosen.`)
  }

  function remove(name: string) {
    onChange(value.filter((existing) => existing !== name))
    setAnnouncement(`${name} removed.`)
    input.current?.focus()
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        if (!open) openList()
        else setActiveIndex(Math.min(active + 1, options.length - 1))
        break
      case 'ArrowUp':
        event.preventDefault()
        if (!open) openList()
        else setActiveIndex(Math.max(active - 1, 0))
        break
      case 'Enter':
        if (!showList) break
        event.preventDefault()
        toggle(options[active]!)
        setQuery('')
        break
      case 'Escape':
        if (open) {
          // Closing the list is all Escape does here: a dialog or editor around the picker keeps its own Escape.
          event.preventDefault()
          event.stopPropagation()
          setOpen(false)
        } else if (query !== '') {
          event.preventDefault()
          setQuery('')
        }
        break
      case 'Backspace':
        if (query === '' && value.length > 0) {
          event.preventDefault()
          remove(value.at(-1)!)
        }
        break
      case 'Tab':
        setOpen(false)
        break
    }
  }

  const status = statusLine(view?.refreshing ?? false, listing, open, options.length, query)
  return (
    <div
      className="category-picker"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false)
      }}
    >
      <label className="category-picker__label" id={labelId} htmlFor={`${baseId}-input`}>
        Categories
      </label>
      <div className={classNames('category-picker__field', open && 'category-picker__field--open')} onClick={() => input.current?.focus()}>
        {value.length > 0 && (
          <ul className="category-picker__chips" aria-label="Chosen categories">
            {value.map((name) => {
              const gone = missing.includes(name)
              return (
                <li key={name} className={classNames('category-chip', gone && 'category-chip--missing')}>
                  <span className="category-chip__name">
                    {name}
                    {gone && <span className="visually-hidden"> (no longer on the server)</span>}
                  </span>
                  <button type="button" className="category-chip__remove" aria-label={`Remove ${name}`} onClick={() => remove(name)}>
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              )
            })}
          </ul>
        )}
        <input
          ref={input}
          id={`${baseId}-input`}
          className="category-picker__input"
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          placeholder={value.length === 0 ? 'Choose categories…' : 'Add another…'}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listboxId}
          aria-activedescendant={showList ? optionId(active) : undefined}
          aria-describedby={notesId}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value)
            setActiveIndex(0)
            if (!open) openList()
          }}
          onClick={() => (open ? setOpen(false) : openList())}
          onKeyDown={onKeyDown}
        />
      </div>
      <ul className="category-picker__listbox" id={listboxId} role="listbox" aria-multiselectable="true" aria-labelledby={labelId} hidden={!showList}>
        {options.map((name, index) => {
          const isChosen = chosen.has(fold(name))
          return (
            <li
              key={name}
              id={optionId(index)}
              role="option"
              aria-selected={isChosen}
              className={classNames('category-option', index === active && 'category-option--active', isChosen && 'category-option--chosen')}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActiveIndex(index)}
              onClick={() => toggle(name)}
            >
              <span className="category-option__check" aria-hidden="true" />
              {name}
            </li>
          )
        })}
      </ul>
      {open && options.length === 0 && status && <p className="category-picker__empty">{status}</p>}
      <div className="category-picker__notes" id={notesId}>
        {missing.map((name) => (
          <p key={name} className="category-picker__missing">
            “{name}” is no longer on the server. Remove it, or the weblog will refuse the post.
          </p>
        ))}
        {listing?.problem && (
          <p className="category-picker__problem">
            {listing.problem}
            {listing.fetchedAt && (
              <>
                {' '}
                Last read{' '}
                <time dateTime={listing.fetchedAt} title={formatExact(listing.fetchedAt)}>
                  {formatWhen(listing.fetchedAt)}
                </time>
                .
              </>
            )}
          </p>
        )}
        {view?.error && <p className="category-picker__problem">{view.error.message}</p>}
        {listing && query.trim() !== '' && options.length === 0 && (
          <p className="category-picker__new">
            “{query.trim()}” is not one of the weblog’s categories, and a new one cannot be created through this protocol. Add it on the
            weblog’s own site, then open this list again.{' '}
            {homeUrl && (
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setLinkError(null)
                  openInBrowser(homeUrl).catch((error: unknown) => setLinkError(toApiError(error).message))
                }}
              >
                Open the weblog’s site ↗
              </button>
            )}
          </p>
        )}
        {linkError && <p className="category-picker__problem">{linkError}</p>}
      </div>
      <p className="visually-hidden" role="status">
        {announcement} {status}
      </p>
    </div>
  )
}

/** What a screen reader hears about the list as it changes. */
function statusLine(refreshing: boolean, listing: { categories: string[] } | null, open: boolean, matches: number, query: string): string {
  if (!open) return ''
  if (refreshing && !listing) return 'Loading the weblog’s categories…'
  if (listing && listing.categories.length === 0) return 'This weblog has no categories.'
  if (matches === 0) return `No category matches “${query.trim()}”.`
  return `${matches} ${matches === 1 ? 'category' : 'categories'}.`
}

/** The service compares category names without regard to case. */
function fold(name: string): string {
  return name.toLowerCase()
}
