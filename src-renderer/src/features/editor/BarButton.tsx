import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { shortcut } from '../../lib/keys'
import './toolbar.css'

export interface BarButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'onClick'> {
  label: string
  /** Its shortcut, as the shortcuts table writes keys ("Mod-B"): announced, and shown in the tooltip. */
  keys?: string
  pressed?: boolean
  /** Keeps the text's selection when clicked: the command acts on it, and the caret stays where it was. */
  keepsSelection?: boolean
  onClick(): void
  children: ReactNode
}

/** A small button of the editor's bars (the formatting toolbar, the find bar): an icon or a letter, named by `label`. */
export function BarButton({ label, keys, pressed, keepsSelection = false, onClick, children, className, ...rest }: BarButtonProps) {
  const keyNames = keys ? shortcut(keys) : null
  return (
    <button
      {...rest}
      type="button"
      className={className ? `toolbar__button ${className}` : 'toolbar__button'}
      aria-label={label}
      aria-pressed={pressed}
      aria-keyshortcuts={keyNames?.aria}
      title={keyNames ? `${label} (${keyNames.shown})` : label}
      onMouseDown={keepsSelection ? (event) => event.preventDefault() : undefined}
      onClick={onClick}
    >
      {children}
    </button>
  )
}

export function BarIcon({ path }: { path: string }) {
  return (
    <svg className="toolbar__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  )
}
