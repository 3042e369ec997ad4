import type { ReactNode } from 'react'
import './app-shell.css'

export interface AppShellProps {
  sidebar: ReactNode
  children: ReactNode
}

/** The window's frame: a sidebar for navigation and the main pane for whatever is selected. */
export function AppShell({ sidebar, children }: AppShellProps) {
  return (
    <div className="app-shell">
      <aside className="app-shell__sidebar">
        <div className="app-shell__sidebar-content">{sidebar}</div>
      </aside>
      <main className="app-shell__main">{children}</main>
    </div>
  )
}
