import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button } from './Button'
import './confirm-dialog.css'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  /** What will happen, in words; read out with the title. */
  children: ReactNode
  confirmLabel: string
  cancelLabel?: string
  /** A confirmation that destroys something is drawn in the danger colour. */
  destructive?: boolean
  /** While the confirmed action runs: both buttons wait. */
  busy?: boolean
  /** The confirming button has the focus first (Enter confirms): for a question that destroys nothing. */
  confirmFirst?: boolean
  onConfirm(): void
  onCancel(): void
}

/**
 * A modal question (the native <dialog>: focus stays inside, Escape cancels). Cancel has the focus first unless the
 * question destroys nothing (`confirmFirst`), so a stray Enter never destroys anything.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive = false,
  busy = false,
  confirmFirst = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const messageId = useId()

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) {
      element.showModal()
      // showModal focuses the first button (Cancel) itself; React's autoFocus is not an attribute it sees.
      if (confirmFirst) element.querySelector<HTMLElement>('.confirm-dialog__confirm')?.focus()
    }
    if (!open && element.open) element.close()
  }, [open, confirmFirst])

  return (
    <dialog
      ref={dialog}
      className="dialog confirm-dialog"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onCancel()
      }}
    >
      {open && (
        <>
          <h2 className="confirm-dialog__title" id={titleId}>
            {title}
          </h2>
          <div className="confirm-dialog__message" id={messageId}>
            {children}
          </div>
          <div className="confirm-dialog__actions">
            <Button disabled={busy} onClick={onCancel}>
              {cancelLabel}
            </Button>
            <Button
              variant="primary"
              className={destructive ? 'confirm-dialog__confirm confirm-dialog__confirm--destructive' : 'confirm-dialog__confirm'}
              disabled={busy}
              onClick={onConfirm}
            >
              {confirmLabel}
            </Button>
          </div>
        </>
      )}
    </dialog>
  )
}
