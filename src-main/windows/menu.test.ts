import type { MenuItemConstructorOptions } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppCommand } from '../../src-shared/contract'
import { fake, shell } from '../platform/testing/fake-electron'
import { appMenuTemplate, commandItems, installAppMenu, type AppMenuOptions } from '.'

vi.mock('electron', () => import('../platform/testing/fake-electron'))

beforeEach(() => {
  fake.reset()
})

function template(overrides: Partial<AppMenuOptions> = {}) {
  const onCommand = vi.fn((_command: AppCommand) => undefined)
  const menu = appMenuTemplate({ onCommand, dataDir: '/home/melody/.config/Blogdesk', isMac: false, isPackaged: true, ...overrides })
  return { menu, onCommand }
}

/** Every item of the menu bar and its submenus, depth first. */
function items(menu: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return menu.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
}

const named = (menu: MenuItemConstructorOptions[], label: string) => {
  const item = items(menu).find((candidate) => candidate.label === label)
  if (!item) throw new Error(`no menu item "${label}"`)
  return item
}

const topLevel = (menu: MenuItemConstructorOptions[]) => menu.map((item) => item.label ?? item.role)

describe('the application menu', () => {
  it.each([
    ['New Post', 'CmdOrCtrl+N', 'new-post'],
    ['Save', 'CmdOrCtrl+S', 'save'],
    ['Publish', 'CmdOrCtrl+Enter', 'publish'],
    ['Insert Link…', 'CmdOrCtrl+K', 'insert-link'],
    ['Find…', 'CmdOrCtrl+F', 'find'],
    ['Keyboard Shortcuts', 'CmdOrCtrl+/', 'shortcuts'],
    ['Search All Posts…', 'CmdOrCtrl+Shift+F', 'search'],
  ])('%s (%s) sends the %s command', (label, accelerator, command) => {
    const { menu, onCommand } = template()
    const item = named(menu, label)
    expect(item.accelerator).toBe(accelerator)
    ;(item.click as () => void)()
    expect(onCommand.mock.calls).toEqual([[command]])
  })

  it('offers every command of the contract, each under one shortcut', () => {
    const { menu } = template()
    const accelerators = items(menu).flatMap((item) => (item.accelerator ? [item.accelerator] : []))
    expect(new Set(accelerators).size).toBe(accelerators.length)
    expect(commandItems.map((item) => item.command).sort()).toEqual(['find', 'insert-link', 'new-post', 'publish', 'save', 'search', 'shortcuts'])
  })

  it('has the standard menus, with the application menu first on macOS', () => {
    expect(topLevel(template().menu)).toEqual(['File', 'Edit', 'View', 'windowMenu', 'help'])
    expect(topLevel(template({ isMac: true }).menu)).toEqual(['appMenu', 'File', 'Edit', 'View', 'windowMenu', 'help'])
    const roles = items(template().menu).map((item) => item.role)
    expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'zoomIn', 'togglefullscreen']))
  })

  it('quits from File on Windows and Linux, and closes the window there on macOS', () => {
    const fileMenu = (isMac: boolean) => template({ isMac }).menu.find((item) => item.label === 'File')!.submenu as MenuItemConstructorOptions[]
    expect(fileMenu(false).at(-1)?.role).toBe('quit')
    expect(fileMenu(true).at(-1)?.role).toBe('close')
  })

  it('offers reload and the developer tools only while developing', () => {
    const roles = (isPackaged: boolean) => items(template({ isPackaged }).menu).map((item) => item.role)
    expect(roles(true)).not.toContain('toggleDevTools')
    expect(roles(true)).not.toContain('reload')
    expect(roles(false)).toEqual(expect.arrayContaining(['toggleDevTools', 'reload']))
  })

  it('leaves Ctrl+Enter to the window, which publishes only from the post: shown in the menu, never taken by it', () => {
    const { menu } = template()
    expect(named(menu, 'Publish').registerAccelerator).toBe(false)
    expect(items(menu).filter((item) => item.registerAccelerator === false).map((item) => item.label)).toEqual(['Publish'])
  })

  it('shows the data folder from Help', () => {
    ;(named(template().menu, 'Show Data Folder').click as () => void)()
    expect(shell.openPath).toHaveBeenCalledWith('/home/melody/.config/Blogdesk')
  })

  it('is installed as the application menu', () => {
    installAppMenu({ onCommand: () => undefined, dataDir: '/data', isMac: false, isPackaged: true })
    expect(topLevel(fake.applicationMenu?.template ?? [])).toEqual(['File', 'Edit', 'View', 'windowMenu', 'help'])
  })
})
