import { useEffect, useState } from 'react'
import { shortcuts } from '../../../../src-shared/contract'
import { matchesKeys } from '../../lib/keys'
import { useAppCommand } from '../editor'
import { cyclePanes, focusPane, rememberFocusInPanes } from './panes'
import { ShortcutsSheet } from './ShortcutsSheet'
import './keyboard.css'

/**
 * What the keyboard has in every screen: the skip link (the window's first Tab stop), F6 and Shift+F6 between panes,
 * and the shortcuts sheet (Ctrl+/ or Help › Keyboard Shortcuts).
 */
export function KeyboardLayer() {
  const [sheetOpen, setSheetOpen] = useState(false)

  useEffect(rememberFocusInPanes, [])
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return
      if (matchesKeys(event, shortcuts.nextPane.keys) || matchesKeys(event, shortcuts.previousPane.keys)) {
        // A modal dialog holds the focus until it is answered.
        if (document.querySelector('dialog[open]')) return
        event.preventDefault()
        cyclePanes(event.shiftKey ? -1 : 1)
      } else if (matchesKeys(event, shortcuts.showShortcuts.keys)) {
        event.preventDefault()
        setSheetOpen(true)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
  // From the menu: opens the sheet (the menu's accelerator and the page's key may both deliver the same press).
  useAppCommand((command) => {
    if (command === 'shortcuts') setSheetOpen(true)
  })

  return (
    <>
      <a
        className="skip-link"
        href="#main-pane"
        onClick={(event) => {
          event.preventDefault()
          focusPane('main')
        }}
      >
        Skip to main content
      </a>
      <ShortcutsSheet open={sheetOpen} onClose={() => setSheetOpen(false)} />
    </>
  )
}
