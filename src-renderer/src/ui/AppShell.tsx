import type { ReactNode } from 'react'
import { classNames } from './classNames'
import './app-shell.css'

export interface AppShellProps {
  sidebar: ReactNode
  /** The list pane beside the main pane (drafts, posts, friends); left out where the main pane needs the room. */
  list?: ReactNode
  /** What the list pane holds, for assistive technology, e.g. "Drafts of Melody's weblog". */
  listLabel?: string
  /** Messages that concern the whole window (a paused account), above the panes. */
  banner?: ReactNode
  statusBar: ReactNode
  children: ReactNode
}

/** The window's frame: the sidebar, the list pane and the main pane side by side, the status bar along the bottom. */
export function AppShell({ sidebar, list, listLabel, banner, statusBar, children }: AppShellProps) {
  const hasList = list !== undefined && list !== null
  return (
    <div className={classNames('app-shell', hasList && 'app-shell--with-list')}>
      <aside className="app-shell__sidebar" data-pane="sidebar">
        {sidebar}
      </aside>
      {banner && <div className="app-shell__banner">{banner}</div>}
      {hasList && (
        <section className="app-shell__list" aria-label={listLabel} data-pane="list">
          {list}
        </section>
      )}
      <main className="app-shell__main" id="main-pane" data-pane="main">
        {children}
      </main>
      <div className="app-shell__status">{statusBar}</div>
    </div>
  )
}
