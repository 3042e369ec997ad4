// Every keyboard shortcut Blogdesk has, in one table: the application menu takes its accelerators from it, the
// window's key handlers match key presses against it, and the shortcuts sheet lists it, so none of them can drift.
import type { AppCommand } from './shapes'

/** Where a shortcut works, as the shortcuts sheet groups them. */
export type ShortcutGroup = 'Window' | 'Post' | 'Formatting' | 'Toolbar and menus' | 'Find'

export interface Shortcut {
  /** As ProseMirror writes keys: modifiers, then the key, joined by '-'. `Mod` is Ctrl, or ⌘ on macOS. */
  keys: string
  /** What it does, in the sheet's words. */
  label: string
  group: ShortcutGroup
  /** The application menu's command it also sends, where the menu has it. */
  command?: AppCommand
}

export const shortcuts = {
  newPost: { keys: 'Mod-N', label: 'New post', group: 'Window', command: 'new-post' },
  nextPane: { keys: 'F6', label: 'Next pane: sidebar, list, main pane', group: 'Window' },
  previousPane: { keys: 'Shift-F6', label: 'Previous pane', group: 'Window' },
  showShortcuts: { keys: 'Mod-/', label: 'Keyboard shortcuts (this list)', group: 'Window', command: 'shortcuts' },
  search: { keys: 'Mod-Shift-F', label: 'Search all drafts and posts of the account', group: 'Window', command: 'search' },
  save: { keys: 'Mod-S', label: 'Save the post now', group: 'Post', command: 'save' },
  publish: { keys: 'Mod-Enter', label: 'Publish, from the title or text (asks the first time)', group: 'Post', command: 'publish' },
  insertLink: { keys: 'Mod-K', label: 'Insert or edit a link', group: 'Post', command: 'insert-link' },
  postStart: { keys: 'Mod-Home', label: 'Go to the start of the post', group: 'Post' },
  postEnd: { keys: 'Mod-End', label: 'Go to the end of the post', group: 'Post' },
  imageProperties: { keys: 'Alt-Enter', label: 'Properties of the selected image: alt text, caption, size', group: 'Post' },
  bold: { keys: 'Mod-B', label: 'Bold', group: 'Formatting' },
  italic: { keys: 'Mod-I', label: 'Italic', group: 'Formatting' },
  strike: { keys: 'Mod-Shift-S', label: 'Strikethrough', group: 'Formatting' },
  code: { keys: 'Mod-E', label: 'Code', group: 'Formatting' },
  bulletList: { keys: 'Mod-Shift-8', label: 'Bulleted list', group: 'Formatting' },
  orderedList: { keys: 'Mod-Shift-7', label: 'Numbered list', group: 'Formatting' },
  quote: { keys: 'Mod-Shift-B', label: 'Quote', group: 'Formatting' },
  codeBlock: { keys: 'Mod-Alt-C', label: 'Code block', group: 'Formatting' },
  undo: { keys: 'Mod-Z', label: 'Undo', group: 'Formatting' },
  redo: { keys: 'Mod-Shift-Z', label: 'Redo', group: 'Formatting' },
  previousItem: { keys: 'ArrowLeft', label: 'Previous button of the toolbar (Up in a menu)', group: 'Toolbar and menus' },
  nextItem: { keys: 'ArrowRight', label: 'Next button of the toolbar (Down in a menu)', group: 'Toolbar and menus' },
  firstItem: { keys: 'Home', label: 'First button or menu item', group: 'Toolbar and menus' },
  lastItem: { keys: 'End', label: 'Last button or menu item', group: 'Toolbar and menus' },
  closeMenu: { keys: 'Escape', label: 'Close a menu, dialog or the find bar', group: 'Toolbar and menus' },
  find: { keys: 'Mod-F', label: 'Find in the post', group: 'Find', command: 'find' },
  replace: { keys: 'Mod-H', label: 'Find and replace', group: 'Find' },
  nextMatch: { keys: 'Enter', label: 'Next match, in the find field', group: 'Find' },
  previousMatch: { keys: 'Shift-Enter', label: 'Previous match, in the find field', group: 'Find' },
} as const satisfies Record<string, Shortcut>

export type ShortcutName = keyof typeof shortcuts

/** The keys as Electron's menu accelerators write them ('Mod-Shift-Z' → 'CmdOrCtrl+Shift+Z'). */
export function acceleratorOf(keys: string): string {
  return keys
    .split('-')
    .map((part) => (part === 'Mod' ? 'CmdOrCtrl' : part))
    .join('+')
}
