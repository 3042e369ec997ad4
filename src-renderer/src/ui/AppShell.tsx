import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { classNames } from './classNames'
import { Icon } from './Icon'
import { useMediaQuery } from './useMediaQuery'
import './app-shell.css'

/** Below this width the list pane leaves the main pane its room and becomes a drawer (app-shell.css says the same). */
const LIST_DRAWER_QUERY = '(max-width: 1099.98px)'

/** Whether the window is narrow enough that a list pane is a drawer, closed until asked for. */
export function useListInDrawer(): boolean {
  return useMediaQuery(LIST_DRAWER_QUERY)
}

export interface AppShellProps {
  sidebar: ReactNode
  /** The list pane beside the main pane (drafts, posts, friends); left out where the main pane needs the room. */
  list?: ReactNode
  /** What the list pane holds, for assistive technology, e.g. "Drafts of Melody's weblog". */
  listLabel?: string
  /** What is picked in the list (the open draft, friend): picking something closes the list's drawer. */
  listPick?: string | null
  /** Messages that concern the whole window (a paused account), above the panes. */
  banner?: ReactNode
  statusBar: ReactNode
  children: ReactNode
}

/**
 * The window's frame: the sidebar, the list pane and the main pane side by side, the status bar along the bottom. In a
 * narrow window the list pane is a drawer over the main pane, opened and closed by a button above it.
 */
export function AppShell({ sidebar, list, listLabel, listPick, banner, statusBar, children }: AppShellProps) {
  const hasList = list !== undefined && list !== null
  const narrow = useListInDrawer()
  const drawer = hasList && narrow
  // The drawer stays open for the list and pick it was opened on: picking something (it opens in the main pane) or
  // going to another list closes it.
  const shown = `${listLabel ?? ''}\n${listPick ?? ''}`
  const [openOn, setOpenOn] = useState<string | null>(null)
  const listId = useId()
  const toggle = useRef<HTMLButtonElement>(null)
  const pane = useRef<HTMLElement>(null)
  const drawerOpen = drawer && openOn === shown

  function show(next: boolean) {
    setOpenOn(next ? shown : null)
    // Opening moves the focus into the list; closing from inside brings it back to the button.
    if (next) requestAnimationFrame(() => pane.current?.focus())
    else if (pane.current?.contains(document.activeElement)) toggle.current?.focus()
  }

  function onListKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (!drawerOpen || event.key !== 'Escape' || event.defaultPrevented) return
    event.preventDefault()
    show(false)
  }

  return (
    <div className={classNames('app-shell', hasList && 'app-shell--with-list', drawer && 'app-shell--list-drawer', drawerOpen && 'app-shell--list-open')}>
      <aside className="app-shell__sidebar" data-pane="sidebar">
        {sidebar}
      </aside>
      {banner && <div className="app-shell__banner">{banner}</div>}
      {drawer && (
        <div className="app-shell__list-bar">
          <button
            ref={toggle}
            type="button"
            className="app-shell__list-toggle"
            aria-expanded={drawerOpen}
            aria-controls={listId}
            onClick={() => show(!drawerOpen)}
          >
            <Icon name="list" />
            <span className="app-shell__list-toggle-label">{listLabel}</span>
          </button>
        </div>
      )}
      {hasList && (
        <section
          ref={pane}
          id={listId}
          className="app-shell__list"
          aria-label={listLabel}
          data-pane="list"
          tabIndex={drawerOpen ? -1 : undefined}
          data-overlay={drawerOpen ? '' : undefined}
          inert={drawer && !drawerOpen}
          onKeyDown={onListKeyDown}
        >
          {list}
        </section>
      )}
      {drawerOpen && <div className="app-shell__scrim" aria-hidden="true" onClick={() => show(false)} />}
      {/* Under the open drawer's scrim the main pane is out of reach, for the keyboard and assistive technology too. */}
      <main className="app-shell__main" id="main-pane" data-pane="main" inert={drawerOpen}>
        {children}
      </main>
      <div className="app-shell__status">{statusBar}</div>
    </div>
  )
}
