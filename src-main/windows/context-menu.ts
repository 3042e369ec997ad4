// The right-click menu of the app's window: spelling suggestions for a misspelled word (the window spell-checks as
// the person types), the editing commands, and for a link, opening or copying it.
import { BrowserWindow, clipboard, Menu, type ContextMenuParams, type MenuItemConstructorOptions, type WebContents } from 'electron'
import { isWebLink } from '../platform'
import { openInBrowser } from './security'

const MAX_SUGGESTIONS = 6

export function attachContextMenu(contents: WebContents): void {
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, contents)
    if (template.length === 0) return
    const window = BrowserWindow.fromWebContents(contents) ?? undefined
    Menu.buildFromTemplate(template).popup({ window })
  })
}

export function contextMenuTemplate(params: ContextMenuParams, contents: WebContents): MenuItemConstructorOptions[] {
  const groups: MenuItemConstructorOptions[][] = []
  const word = params.misspelledWord
  if (word) {
    const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS)
    groups.push(
      suggestions.length > 0
        ? suggestions.map((suggestion) => ({ label: suggestion, click: () => contents.replaceMisspelling(suggestion) }))
        : [{ label: 'No Guesses Found', enabled: false }],
      [{ label: 'Add to Dictionary', click: () => contents.session.addWordToSpellCheckerDictionary(word) }],
    )
  }
  if (isWebLink(params.linkURL)) {
    groups.push([
      { label: 'Open Link in Browser', click: () => openInBrowser(params.linkURL) },
      { label: 'Copy Link', click: () => clipboard.writeText(params.linkURL) },
    ])
  }
  const { editFlags } = params
  if (params.isEditable) {
    groups.push(
      [
        { role: 'cut', enabled: editFlags.canCut },
        { role: 'copy', enabled: editFlags.canCopy },
        { role: 'paste', enabled: editFlags.canPaste },
      ],
      [{ role: 'selectAll', enabled: editFlags.canSelectAll }],
    )
  } else if (params.selectionText.trim() !== '') {
    groups.push([{ role: 'copy', enabled: editFlags.canCopy }])
  }
  return groups.flatMap((group, index) => (index === 0 ? group : [{ type: 'separator' as const }, ...group]))
}
