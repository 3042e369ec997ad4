import { useEffect, useId, useRef, type KeyboardEvent } from 'react'
import { shortcuts, type Shortcut, type ShortcutGroup } from '../../../../src-shared/contract'
import { shortcut } from '../../lib/keys'
import { Button } from '../../ui'

const GROUPS: ShortcutGroup[] = ['Window', 'Post', 'Formatting', 'Toolbar and menus', 'Find']

export interface ShortcutsSheetProps {
  open: boolean
  onClose(): void
}

/**
 * Every shortcut Blogdesk has, from the table the key handlers use: a modal dialog that keeps the focus inside (Tab
 * cycles through it) and closes with Escape, giving the focus back to where it was.
 */
export function ShortcutsSheet({ open, onClose }: ShortcutsSheetProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const returnTo = useRef<Element | null>(null)
  const titleId = useId()

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) {
      returnTo.current = document.activeElement
      element.showModal()
    }
    if (!open && element.open) {
      element.close()
      if (returnTo.current instanceof HTMLElement && returnTo.current.isConnected) returnTo.current.focus()
    }
  }, [open])

  // The rest of the window is inert while the sheet is open; Tab wraps around inside it rather than leaving it.
  function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return
    const stops = [...event.currentTarget.querySelectorAll<HTMLElement>('button, [tabindex="0"]')]
    const at = stops.indexOf(document.activeElement as HTMLElement)
    const next = event.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : at === stops.length - 1 ? 0 : at + 1
    event.preventDefault()
    stops[next]?.focus()
  }

  const all: Shortcut[] = Object.values(shortcuts)
  return (
    <dialog
      ref={dialog}
      className="dialog dialog--sheet shortcuts-sheet"
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
    >
      {open && (
        <>
          <header className="shortcuts-sheet__header">
            <h2 className="shortcuts-sheet__title" id={titleId}>
              Keyboard shortcuts
            </h2>
            <Button variant="quiet" onClick={onClose}>
              Close
            </Button>
          </header>
          <div className="shortcuts-sheet__groups" tabIndex={0} role="group" aria-label="Shortcuts by place">
            {GROUPS.map((group) => (
              <section key={group} className="shortcuts-sheet__group" aria-labelledby={`${titleId}-${group}`}>
                <h3 className="shortcuts-sheet__group-title" id={`${titleId}-${group}`}>
                  {group}
                </h3>
                <dl className="shortcuts-sheet__list">
                  {all
                    .filter((each) => each.group === group)
                    .map((each) => (
                      <div key={each.keys} className="shortcuts-sheet__row">
                        <dt>
                          <kbd className="shortcuts-sheet__keys">{shortcut(each.keys).shown}</kbd>
                        </dt>
                        <dd>{each.label}</dd>
                      </div>
                    ))}
                </dl>
              </section>
            ))}
          </div>
        </>
      )}
    </dialog>
  )
}
