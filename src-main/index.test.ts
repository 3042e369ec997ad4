// The app's lifecycle, with Electron faked and the real core on a temp dir: what a person sees when Blogdesk starts,
// is started twice, fails to start, and quits — and the built-in sandbox, the real service in a child process
// standing in for Electron's utility process.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as WorkerThreads from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { channels, type AccountSummary, type Envelope } from '../src-shared/contract'
import { melody, startTestService } from '../src-service/testing/service-fixture'
import { startServiceProcess } from '../src-service/testing/service-process'

// Loaded once: every fresh load of the main process (resetModules) meets this same fake.
const electron = await vi.hoisted(() => import('./platform/testing/fake-electron'))
vi.mock('electron', () => electron)

const { app, BrowserWindow, dialog, fake } = electron

// The built core-worker.js beside the main file is core's thread from its sources here, as service.js is below.
vi.mock('node:worker_threads', async (importOriginal) => {
  const threads = await importOriginal<typeof WorkerThreads>()
  const { join } = await import('node:path')
  const built = join(import.meta.dirname, 'core-worker.js')
  const sources = new URL('./core-thread/testing/typescript-entry.mjs', import.meta.url)
  class Worker extends threads.Worker {
    constructor(entry: string | URL, options?: WorkerThreads.WorkerOptions) {
      super(entry === built ? sources : entry, options)
    }
  }
  return { ...threads, default: { ...threads, Worker }, Worker }
})

type MenuItem = NonNullable<typeof fake.applicationMenu>['template'][number]
type InvokeEvent = Parameters<NonNullable<ReturnType<typeof fake.ipcHandlers.get>>>[0]

/**
 * How long to wait for what follows the start of core's thread: it loads core from its TypeScript sources here, which
 * takes a second on a quiet machine and several while other test files run.
 */
const SLOW = { timeout: 20_000 }

let appData: string
/** Where Blogdesk keeps its data: appData/Blogdesk. */
let userData: string

beforeEach(() => {
  vi.resetModules()
  fake.reset()
  appData = mkdtempSync(join(tmpdir(), 'blogdesk-app-'))
  userData = join(appData, 'Blogdesk')
  app.paths.set('appData', appData)
  app.paths.set('userData', join(appData, 'blogdesk'))
  // The built service.js beside the main file is the service's sources here.
  fake.utilitySources.set(join(import.meta.dirname, 'service.js'), join(import.meta.dirname, '..', 'src-service', 'server.ts'))
  // The page, as far as quitting goes: with no editor open it has nothing to save, and answers at once.
  fake.page = (contents, channel) => {
    if (channel === 'app:quitting') setImmediate(() => void invokeFrom(contents, 'app:readyToQuit', null))
  }
})

afterEach(async () => {
  // Let a test's app close its store, and its sandbox, before its folder goes.
  await quit()
  rmSync(appData, { recursive: true, force: true })
})

/** Loads the main process as Electron would, with the fake app of this test. */
async function launch(): Promise<void> {
  await import('.')
}

async function start(): Promise<void> {
  await launch()
  await app.becomeReady()
  await vi.waitFor(() => expect(BrowserWindow.created).toHaveLength(1), SLOW)
}

/**
 * Quits, as the person would, and waits until the app is gone: its store closed, its sandbox stopped and its own last
 * app.quit() made. Waiting for less lets that last quit land on the next start of the app, which then quits too.
 */
async function quit(): Promise<void> {
  if (fake.ipcHandlers.size > 0) {
    app.quit()
    await vi.waitFor(() => expect(app.quitting).toBe(true), SLOW)
  }
  await Promise.all(fake.forks.map((fork) => fork.exited))
}

/** Starts the same app again on the same data, as a person reopening Blogdesk would. */
async function restart(): Promise<void> {
  await quit()
  vi.resetModules()
  const paths = new Map(app.paths)
  app.reset()
  for (const [name, path] of paths) app.paths.set(name, path)
  BrowserWindow.created.length = 0
  await start()
}

/** What ipcRenderer.invoke in the page of `contents` gets. */
async function invokeFrom(contents: InstanceType<typeof BrowserWindow>['webContents'], channel: string, request: unknown) {
  const handler = fake.ipcHandlers.get(channel)
  if (!handler) throw new Error(`no handler for ${channel}`)
  const event = { sender: contents, senderFrame: contents.mainFrame } as unknown as InvokeEvent
  return (await handler(event, request)) as Envelope<unknown>
}

async function invokeFromWindow(channel: string, request: unknown): Promise<Envelope<unknown>> {
  const window = BrowserWindow.created[0]
  if (!window) throw new Error(`no window for ${channel}`)
  return invokeFrom(window.webContents, channel, request)
}

function menuItem(label: string): MenuItem {
  const items = (menu: MenuItem[]): MenuItem[] =>
    menu.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
  const item = items(fake.applicationMenu?.template ?? []).find((candidate) => candidate.label === label)
  if (!item) throw new Error(`no menu item "${label}"`)
  return item
}

describe('starting', () => {
  it('sandboxes every renderer, in a data folder named after the product, before anything else', async () => {
    await launch()
    expect(app.enableSandbox).toHaveBeenCalledOnce()
    expect(app.setPath).toHaveBeenCalledWith('userData', userData)
  })

  it('opens one window on our page, answering every channel from the store in user data', async () => {
    await start()
    const [window] = BrowserWindow.created
    await vi.waitFor(() => expect(window?.show).toHaveBeenCalled(), SLOW)
    expect(window?.webContents.mainFrame.url).toMatch(/^file:.*\/renderer\/index\.html$/)
    expect([...fake.ipcHandlers.keys()].sort()).toEqual([...channels].sort())
    expect(await invokeFromWindow('accounts:list', null)).toEqual({ ok: true, value: [] })
    expect(existsSync(join(userData, 'blogdesk.sqlite'))).toBe(true)
  })

  it('tells the person and exits when the store cannot be opened', async () => {
    const notAFolder = join(appData, 'occupied')
    writeFileSync(notAFolder, '')
    app.paths.set('appData', notAFolder)
    await launch()
    await app.becomeReady()
    await vi.waitFor(() => expect(app.exitCode).toBe(1), SLOW)
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Blogdesk could not start', expect.stringContaining('will close now'))
    expect(BrowserWindow.created).toHaveLength(0)
  })

  it('says plainly when another Blogdesk holds the data', async () => {
    mkdirSync(userData, { recursive: true })
    // A live process that is not this one owns the store.
    writeFileSync(join(userData, 'blogdesk.sqlite.pid'), `${process.ppid}\n`)
    await launch()
    await app.becomeReady()
    await vi.waitFor(() => expect(app.exitCode).toBe(1), SLOW)
    expect(dialog.showErrorBox).toHaveBeenCalledWith(
      'Blogdesk is already open',
      expect.stringMatching(new RegExp(`Blogdesk is already running \\(process ${process.ppid}\\)[^]*will close now`)),
    )
  })
})

describe('a second Blogdesk', () => {
  it('quits at once when another one is running', async () => {
    app.hasLock = false
    await launch()
    expect(app.quitting).toBe(true)
    expect(app.whenReady).not.toHaveBeenCalled()
  })

  it('brings the running window to the front instead of opening another', async () => {
    await start()
    app.emit('second-instance')
    await vi.waitFor(() => expect(BrowserWindow.created[0]?.focus).toHaveBeenCalled(), SLOW)
    expect(BrowserWindow.created).toHaveLength(1)
  })

  it('is heard while this one is still opening its store, and gets the window once there is one', async () => {
    await launch()
    app.emit('second-instance')
    await app.becomeReady()
    await vi.waitFor(() => expect(BrowserWindow.created[0]?.focus).toHaveBeenCalled(), SLOW)
    expect(BrowserWindow.created).toHaveLength(1)
  })
})

describe('the menu', () => {
  it("sends the editor's commands to the window", async () => {
    await start()
    ;(menuItem('Publish').click as () => void)()
    expect(BrowserWindow.created[0]?.webContents.send).toHaveBeenCalledWith('app:command', 'publish')
  })
})

describe('the window', () => {
  it('opens where it was when Blogdesk last quit', async () => {
    await start()
    BrowserWindow.created[0]!.normalBounds = { x: 10, y: 40, width: 1000, height: 700 }
    await restart()
    expect(JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8')).bounds).toEqual({
      x: 10,
      y: 40,
      width: 1000,
      height: 700,
    })
    expect(BrowserWindow.created[0]?.options).toMatchObject({ x: 10, y: 40, width: 1000, height: 700 })
  })
})

describe('without a keyring', () => {
  beforeEach(() => {
    fake.keyring = 'basic_text'
  })

  it.runIf(process.platform === 'linux')('warns that passwords are only obfuscated, until told not to', async () => {
    await start()
    await vi.waitFor(() => expect(dialog.showMessageBox).toHaveBeenCalledOnce(), SLOW)
    expect(dialog.showMessageBox.mock.calls[0]?.at(-1)).toMatchObject({
      type: 'warning',
      message: expect.stringContaining('can only obfuscate your passwords'),
      checkboxLabel: expect.any(String),
    })

    await restart()
    await vi.waitFor(() => expect(dialog.showMessageBox).toHaveBeenCalledTimes(2), SLOW)

    fake.messageBoxAnswer = { response: 0, checkboxChecked: true }
    await restart()
    await vi.waitFor(() => expect(dialog.showMessageBox).toHaveBeenCalledTimes(3), SLOW)
    await restart()
    await vi.waitFor(() => expect(BrowserWindow.created[0]?.show).toHaveBeenCalled(), SLOW)
    expect(dialog.showMessageBox).toHaveBeenCalledTimes(3)
  })

  it.runIf(process.platform === 'linux')('still keeps the passwords of the accounts added', async () => {
    const service = await startTestService([melody])
    try {
      await start()
      const added = await invokeFromWindow('accounts:add', { atomBase: service.origin, username: melody.username, apiPassword: melody.password })
      expect(added).toMatchObject({ ok: true, value: { username: 'melody' } })
      await restart()
      const [account] = ((await invokeFromWindow('accounts:list', null)) as { value: AccountSummary[] }).value
      expect(await invokeFromWindow('weblogs:list', { accountId: account!.id, refresh: true })).toMatchObject({ ok: true })
    } finally {
      await service.dispose()
    }
  })

  it('says nothing where the keyring works', async () => {
    fake.keyring = 'gnome_libsecret'
    await start()
    await vi.waitFor(() => expect(BrowserWindow.created[0]?.show).toHaveBeenCalled(), SLOW)
    expect(dialog.showMessageBox).not.toHaveBeenCalled()
  })
})

describe('the built-in sandbox', () => {
  it('starts with Blogdesk again, on its port, while an account uses it — and stops when Blogdesk quits', async () => {
    // A sandbox that ran before in this data folder, and the account Blogdesk added for it.
    const earlier = await startServiceProcess(join(userData, 'sandbox'))
    await start()
    const added = await invokeFromWindow('accounts:add', {
      atomBase: earlier.sandbox.atomBase,
      username: earlier.sandbox.username,
      apiPassword: earlier.sandbox.apiPassword,
    })
    expect(added).toMatchObject({ ok: true })
    const account = (added as { value: AccountSummary }).value
    await earlier.stop()

    await restart()
    await vi.waitFor(() => expect(fake.forks).toHaveLength(1), SLOW)
    expect(fake.forks[0]?.modulePath).toMatch(/service\.js$/)
    expect(fake.forks[0]?.args).toEqual(expect.arrayContaining(['--port', String(earlier.port), '--demo']))
    await vi.waitFor(
      async () => expect(await invokeFromWindow('weblogs:list', { accountId: account.id, refresh: true })).toMatchObject({ ok: true }),
      { timeout: 20_000, interval: 200 },
    )

    await quit()
    await expect(fetch(`${earlier.sandbox.atomBase}/t/atom/weblog`)).rejects.toThrow()
  }, 60_000)

  it('stays off while no account uses it', async () => {
    await start()
    await invokeFromWindow('accounts:list', null)
    expect(fake.forks).toEqual([])
  })
})

describe('quitting', () => {
  it('closes the store before the app goes', async () => {
    await start()
    app.quit()
    expect(app.quitting).toBe(false)
    await vi.waitFor(() => expect(app.quitting).toBe(true), SLOW)
    expect(fake.ipcHandlers.size).toBe(0)
  })

  it('saves what was typed last, before the store closes', async () => {
    await start()
    const service = await startTestService([melody])
    const added = await invokeFromWindow('accounts:add', { atomBase: service.origin, username: melody.username, apiPassword: melody.password })
    const accountId = (added as { value: AccountSummary }).value.id
    const draft = await invokeFromWindow('drafts:create', { accountId, weblogPostUri: `${service.origin}/t/atom/weblog/blog_id=1` })
    await service.dispose()
    expect(draft).toMatchObject({ ok: true })
    const { id } = (draft as { value: { id: string } }).value
    // The editor saves when asked, as a page does: a local write that takes a moment.
    fake.page = (contents, channel) => {
      if (channel !== 'app:quitting') return
      setTimeout(async () => {
        await invokeFrom(contents, 'drafts:save', { draftId: id, content: '<p>The last words typed</p>' })
        await invokeFrom(contents, 'app:readyToQuit', null)
      }, 50)
    }
    await restart()
    expect(await invokeFromWindow('drafts:get', { draftId: id })).toMatchObject({
      ok: true,
      value: { content: '<p>The last words typed</p>' },
    })
  })

  it.runIf(process.platform !== 'darwin')('follows the last window closed', async () => {
    await start()
    app.emit('window-all-closed')
    await vi.waitFor(() => expect(app.quitting).toBe(true), SLOW)
  })
})
