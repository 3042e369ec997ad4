// The application menu: the editor's commands with their usual shortcuts, and the standard Edit, View, Window and
// Help menus. A command goes to the window the person is working in as the contract's 'app:command' event.
import { Menu, shell, type MenuItemConstructorOptions } from 'electron'
import type { AppCommand } from '../../src-shared/contract'

export interface AppMenuOptions {
  /** Sends a command to the window the person is working in. */
  onCommand(command: AppCommand): void
  /** The folder Help › Show Data Folder opens. */
  dataDir: string
  isMac: boolean
  /** Reload and the developer tools are for developing Blogdesk only. */
  isPackaged: boolean
}

/** The editor's commands, with the shortcuts writers know from other editors. */
export const commandItems: readonly { command: AppCommand; label: string; accelerator: string }[] = [
  { command: 'new-post', label: 'New Post', accelerator: 'CmdOrCtrl+N' },
  { command: 'save', label: 'Save', accelerator: 'CmdOrCtrl+S' },
  { command: 'publish', label: 'Publish', accelerator: 'CmdOrCtrl+Enter' },
  { command: 'insert-link', label: 'Insert Link…', accelerator: 'CmdOrCtrl+K' },
  { command: 'find', label: 'Find…', accelerator: 'CmdOrCtrl+F' },
]

export function installAppMenu(options: AppMenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)))
}

export function appMenuTemplate({ onCommand, dataDir, isMac, isPackaged }: AppMenuOptions): MenuItemConstructorOptions[] {
  const item = (command: AppCommand): MenuItemConstructorOptions => {
    const { label, accelerator } = commandItems.find((candidate) => candidate.command === command)!
    return { label, accelerator, click: () => onCommand(command) }
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
