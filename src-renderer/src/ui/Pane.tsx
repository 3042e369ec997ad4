import type { HTMLAttributes, ReactNode } from 'react'
import { classNames } from './classNames'
import './pane.css'

export interface PaneProps {
  /** `narrow` for forms and messages, `centered` for a lone spinner or hint, `wide` for content. */
  layout: 'narrow' | 'centered' | 'wide'
  children: ReactNode
  className?: string
}

/** The content of the main pane, with the app's margins. */
export function Pane({ layout, children, className }: PaneProps) {
  return <div className={classNames('pane', `pane--${layout}`, className)}>{children}</div>
}

/** A raised surface that groups related content, such as a form. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={classNames('card', className)} {...rest} />
}
