// The application menu: the editor's commands with their usual shortcuts, and the standard Edit, View, Window and
// Help menus. A command goes to the window the person is working in as the contract's 'app:command' event.
import { Menu, shell, type MenuItemConstructorOptions } from 'electron'
import { acceleratorOf, shortcuts, type AppCommand } from '../../src-shared/contract'

export interface AppMenuOptions {
  /** Sends a command to the window the person is working in. */
  onCommand(command: AppCommand): void
  /** The folder Help › Show Data Folder opens. */
  dataDir: string
  isMac: boolean
  /** Reload and the developer tools are for developing Blogdesk only. */
  isPackaged: boolean
}

/**
 * The window's commands, with the shortcuts writers know from other editors, taken from the contract's one table of
 * shortcuts. Publish's is shown but left to the window: Ctrl+Enter publishes only from the post's title or text, which
 * only the page knows has the focus.
 */
export const commandItems: readonly { command: AppCommand; label: string; accelerator: string; registerAccelerator?: false }[] = [
  { command: 'new-post', label: 'New Post', accelerator: acceleratorOf(shortcuts.newPost.keys) },
  { command: 'save', label: 'Save', accelerator: acceleratorOf(shortcuts.save.keys) },
  { command: 'publish', label: 'Publish', accelerator: acceleratorOf(shortcuts.publish.keys), registerAccelerator: false },
  { command: 'insert-link', label: 'Insert Link…', accelerator: acceleratorOf(shortcuts.insertLink.keys) },
  { command: 'find', label: 'Find…', accelerator: acceleratorOf(shortcuts.find.keys) },
  { command: 'shortcuts', label: 'Keyboard Shortcuts', accelerator: acceleratorOf(shortcuts.showShortcuts.keys) },
  { command: 'search', label: 'Search All Posts…', accelerator: acceleratorOf(shortcuts.search.keys) },
]

export function installAppMenu(options: AppMenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)))
}

export function appMenuTemplate({ onCommand, dataDir, isMac, isPackaged }: AppMenuOptions): MenuItemConstructorOptions[] {
  const item = (command: AppCommand): MenuItemConstructorOptions => {
    const { label, accelerator, registerAccelerator } = commandItems.find((candidate) => candidate.command === command)!
    return { label, accelerator, ...(registerAccelerator === false && { registerAccelerator }), click: () => onCommand(command) }
  }
  const separator = { type: 'separator' } as const
  const developing: MenuItemConstructorOptions[] = isPackaged ? [] : [{ role: 'reload' }, { role: 'toggleDevTools' }, separator]
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    {
      label: 'File',
      submenu: [item('new-post'), separator, item('save'), item('publish'), separator, isMac ? { role: 'close' } : { role: 'quit' }],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        separator,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'pasteAndMatchStyle' },
        { role: 'delete' },
        { role: 'selectAll' },
        separator,
        item('insert-link'),
        item('find'),
        item('search'),
      ],
    },
    {
      label: 'View',
      submenu: [...developing, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, separator, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        item('shortcuts'),
        separator,
        {
          label: 'Show Data Folder',
          click: () => {
            void shell.openPath(dataDir).then((problem) => {
              if (problem) console.error(`Blogdesk could not open ${dataDir}: ${problem}`)
            })
          },
        },
      ],
    },
  ]
}
