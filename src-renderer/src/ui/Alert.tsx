import type { ReactNode } from 'react'
import { classNames } from './classNames'
import './alert.css'

export type AlertTone = 'info' | 'warning' | 'error'

export interface AlertProps {
  tone: AlertTone
  title: string
  children: ReactNode
  /** Buttons that deal with the problem, e.g. Retry. */
  actions?: ReactNode
  className?: string
}

const icons: Record<AlertTone, string> = { info: 'i', warning: '!', error: '×' }

/** A message that needs attention now; announced by screen readers as soon as it appears. */
export function Alert({ tone, title, children, actions, className }: AlertProps) {
  return (
    <div role="alert" className={classNames('alert', `alert--${tone}`, className)}>
      <span className="alert__icon" aria-hidden="true">
        {icons[tone]}
      </span>
      <div className="alert__body">
        <p className="alert__title">{title}</p>
        <div className="alert__message">{children}</div>
        {actions && <div className="alert__actions">{actions}</div>}
      </div>
    </div>
  )
}
