import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button } from './Button'
import './sheet.css'

export interface SheetProps {
  open: boolean
  title: string
  children: ReactNode
  onClose(): void
}

/**
 * Details one asks for now and then, over the window (the native modal <dialog>: focus stays inside, Escape closes).
 * On closing, the focus goes back to what opened it, as the browser does for a modal dialog.
 */
export function Sheet({ open, title, children, onClose }: SheetProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])

  return (
    <dialog
      ref={dialog}
      className="dialog dialog--sheet sheet"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
    >
      {open && (
        <>
          <header className="sheet__header">
            <h2 className="sheet__title" id={titleId}>
              {title}
            </h2>
            <Button variant="quiet" autoFocus onClick={onClose}>
              Close
            </Button>
          </header>
          <div className="sheet__body">{children}</div>
        </>
      )}
    </dialog>
  )
}
