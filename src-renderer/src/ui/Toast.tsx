import { useEffect, useRef, useState } from 'react'
import { Button } from './Button'
import './toast.css'

export interface ToastProps {
  /** What just happened, read out as it appears. */
  message: string
  /** The one thing to do about it (Undo), if any. */
  actionLabel?: string
  onAction?(): void
  onDismiss(): void
  /** How long it stays while the pointer and the focus are elsewhere. */
  durationMs?: number
}

/**
 * A short note at the foot of the window with one action. Its timer stops while the pointer is over it or the focus
 * is in it, so someone reaching it by keyboard or reading slowly is not cut short. What it tells of has often just
 * gone with the focus in it (Delete, in a draft now closed): the focus, left on nothing, comes to its action, the next
 * thing one may want, rather than to the top of the window.
 */
export function Toast({ message, actionLabel, onAction, onDismiss, durationMs = 8_000 }: ToastProps) {
  const [held, setHeld] = useState({ hover: false, focus: false })
  const dismiss = useRef(onDismiss)
  useEffect(() => {
    dismiss.current = onDismiss
  }, [onDismiss])
  const waiting = !held.hover && !held.focus
  const toast = useRef<HTMLDivElement>(null)

  useEffect(() => {
    // After the frame that drew it, by when what had the focus is gone.
    const frame = requestAnimationFrame(() => {
      if (document.activeElement === null || document.activeElement === document.body) toast.current?.querySelector('button')?.focus()
    })
    return () => cancelAnimationFrame(frame)
  }, [message])

  useEffect(() => {
    if (!waiting) return
    const timer = setTimeout(() => dismiss.current(), durationMs)
    return () => clearTimeout(timer)
  }, [waiting, durationMs, message])

  return (
    <div
      ref={toast}
      className="toast"
      onMouseEnter={() => setHeld((state) => ({ ...state, hover: true }))}
      onMouseLeave={() => setHeld((state) => ({ ...state, hover: false }))}
      onFocus={() => setHeld((state) => ({ ...state, focus: true }))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld((state) => ({ ...state, focus: false }))
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDismiss()
      }}
    >
      <p className="toast__message" role="status">
        {message}
      </p>
      {actionLabel && onAction && (
        <Button variant="quiet" className="toast__action" onClick={onAction}>
          {actionLabel}
        </Button>
      )}
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  )
}
