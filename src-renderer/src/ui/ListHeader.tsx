import type { ReactNode } from 'react'
import './list-header.css'

export interface ListHeaderProps {
  /** The heading's id, which the list's section is labelled by. */
  id: string
  title: string
  /** Buttons beside the title. */
  children?: ReactNode
}

/** The heading of a list pane (Drafts, Published posts, Friends), kept in view as the list scrolls, with its actions. */
export function ListHeader({ id, title, children }: ListHeaderProps) {
  return (
    <header className="list-header">
      <h2 className="list-header__title" id={id}>
        {title}
      </h2>
      {children}
    </header>
  )
}
