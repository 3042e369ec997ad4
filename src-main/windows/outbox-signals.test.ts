import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppStatus, Event, Events, OutboxItem } from '../../src-shared/contract'
import type { Core } from '../core'
import { app, BrowserWindow, fake, Notification } from '../platform/testing/fake-electron'
import { AppWindows, appPage, signalOutbox } from '.'

vi.mock('electron', () => import('../platform/testing/fake-electron'))

const online: AppStatus['connection'] = { state: 'online', accountId: null, host: null, waiting: 0, nextTryAt: null, reason: null }
const quiet: AppStatus = { online: true, outbox: { waiting: 0, needsAttention: 0 }, paused: [], connection: online, accounts: [] }
const busy: AppStatus = { online: true, outbox: { waiting: 2, needsAttention: 1 }, paused: [], connection: online, accounts: [] }

function item(overrides: Partial<OutboxItem>): OutboxItem {
  return {
    id: 7,
    accountId: 'a1',
    kind: 'post.create',
    state: 'queued',
    title: 'Lisbon in June',
    queueKey: 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1',
    draftId: 'd1',
    attempts: 0,
    lastError: null,
    nextAttemptAt: null,
    enqueuedAt: '2024-06-01T10:00:00Z',
    resultUrl: null,
    ...overrides,
  }
}

/** Core as far as the signals see it: events to listen to, and the status handler. */
function fakeCore(status: AppStatus) {
  const listeners = new Set<(event: Event, payload: unknown) => void>()
  const appStatus = vi.fn(async () => status)
  const core = {
    handlers: { 'app:status': appStatus } as unknown as Core['handlers'],
    onEvent(listener: (event: Event, payload: unknown) => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  } as Pick<Core, 'onEvent' | 'handlers'>
  const emit = <E extends Event>(event: E, payload: Events[E]) => {
    for (const listener of listeners) listener(event, payload)
  }
  return { core, appStatus, emit, listenerCount: () => listeners.size }
}

let windows: AppWindows
let stops: (() => void)[]

beforeEach(() => {
  fake.reset()
  windows = new AppWindows(appPage({ mainDir: '/opt/blogdesk/out/main', isPackaged: true }))
  windows.open()
  stops = []
})

afterEach(() => {
  for (const stop of stops) stop()
})

function signal(status: AppStatus, os: NodeJS.Platform) {
  const fake = fakeCore(status)
  stops.push(signalOutbox(fake.core, windows, os))
  return fake
}

const shown = () => Notification.shown.map((notification) => notification.options)

describe('the outbox count on the app icon', () => {
  it.each(['darwin', 'linux'] as const)('is the Dock or launcher badge on %s', async (os) => {
    const { emit } = signal(busy, os)
    await vi.waitFor(() => expect(app.setBadgeCount).toHaveBeenLastCalledWith(3))
    emit('app:statusChanged', quiet)
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(0)
  })

  it('is counted again whenever an operation changes', async () => {
    const { emit, appStatus } = signal(busy, 'darwin')
    await vi.waitFor(() => expect(appStatus).toHaveBeenCalledOnce())
    emit('outbox:changed', item({ state: 'sending' }))
    await vi.waitFor(() => expect(appStatus).toHaveBeenCalledTimes(2))
  })

  it('is a dot over the taskbar button on Windows, with the count in words', async () => {
    const { emit } = signal(busy, 'win32')
    const [window] = BrowserWindow.created
    await vi.waitFor(() => expect(window!.setOverlayIcon).toHaveBeenCalled())
    const [image, description] = window!.setOverlayIcon.mock.calls.at(-1)!
    expect(description).toBe('3 in the outbox')
    const { pixels, size } = image as { pixels: Buffer; size: { width: number; height: number; scaleFactor: number } }
    expect(size).toEqual({ width: 32, height: 32, scaleFactor: 2 })
    const alphaAt = (x: number, y: number) => pixels[(y * 32 + x) * 4 + 3]
    expect(alphaAt(16, 16)).toBe(255)
    expect(alphaAt(0, 0)).toBe(0)
    expect(app.setBadgeCount).not.toHaveBeenCalled()

    emit('app:statusChanged', quiet)
    expect(window!.setOverlayIcon).toHaveBeenLastCalledWith(null, '')
  })

  it('is cleared when the signals stop, and follows core no more', async () => {
    const { emit, listenerCount } = signal(busy, 'darwin')
    await vi.waitFor(() => expect(app.setBadgeCount).toHaveBeenLastCalledWith(3))
    stops.pop()!()
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(0)
    expect(listenerCount()).toBe(0)
    emit('app:statusChanged', busy)
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(0)
  })
})

describe('notifications', () => {
  it('tell the person, while they are in another app, what was published', () => {
    const { emit } = signal(quiet, 'linux')
    emit('outbox:changed', item({ state: 'sending' }))
    emit('outbox:changed', item({ state: 'done', resultUrl: 'http://127.0.0.1:4567/melody/2024/06/lisbon.html' }))
    emit('outbox:changed', item({ id: 8, kind: 'photo', state: 'done', title: 'Tram 28' }))
    emit('outbox:changed', item({ id: 9, kind: 'post.update', state: 'done', title: '  ' }))
    expect(shown()).toEqual([
      { title: 'Published', body: '“Lisbon in June” is on your weblog.' },
      { title: 'Photo added', body: '“Tram 28” is in your album.' },
      { title: 'Changes published', body: '“Untitled” is updated on your weblog.' },
    ])
  })

  it('tell what needs their attention, and why', () => {
    const { emit } = signal(quiet, 'linux')
    emit('outbox:changed', item({ state: 'needs-attention', lastError: 'The server refused the category “Travel”.' }))
    emit('outbox:changed', item({ id: 8, state: 'conflict', title: 'About me' }))
    emit('outbox:changed', item({ id: 9, state: 'needs-attention' }))
    expect(shown()).toEqual([
      { title: 'Needs your attention', body: '“Lisbon in June” was not sent: The server refused the category “Travel”.' },
      { title: 'Changed in two places', body: '“About me” was changed on the server too. Open it to choose which version to keep.' },
      { title: 'Needs your attention', body: '“Lisbon in June” was not sent: open the outbox to see why.' },
    ])
  })

  it('come once per outcome, however often core repeats it', () => {
    const { emit } = signal(quiet, 'linux')
    emit('outbox:changed', item({ state: 'needs-attention', attempts: 1 }))
    emit('outbox:changed', item({ state: 'needs-attention', attempts: 1 }))
    emit('outbox:changed', item({ state: 'queued', attempts: 1 }))
    emit('outbox:changed', item({ state: 'done', attempts: 2 }))
    emit('outbox:changed', item({ state: 'done', attempts: 2 }))
    expect(shown().map((options) => options.title)).toEqual(['Needs your attention', 'Published'])
  })

  it('stay quiet while the person is looking at Blogdesk, or where the system has none', () => {
    const { emit } = signal(quiet, 'linux')
    BrowserWindow.focused = BrowserWindow.created[0]!
    emit('outbox:changed', item({ state: 'done' }))
    BrowserWindow.focused = null
    fake.notificationsSupported = false
    emit('outbox:changed', item({ id: 8, state: 'done' }))
    expect(shown()).toEqual([])
  })

  it('that the system refuses (an unsigned macOS build) are let go, said once in the log and nowhere else', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    fake.platform = 'darwin'
    fake.notificationsPermitted = false
    const { emit } = signal(quiet, 'darwin')
    emit('outbox:changed', item({ state: 'done' }))
    emit('outbox:changed', item({ id: 8, state: 'done' }))
    await vi.waitFor(() => expect(Notification.shown.every((notification) => notification.listenerCount('failed') > 0)).toBe(true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(warn.mock.calls.filter(([message]) => /cannot show notifications/.test(String(message)))).toHaveLength(1)
    expect(warn.mock.calls.filter(([message]) => /outbox count/.test(String(message)))).toHaveLength(1)
    warn.mockRestore()
  })

  it('bring Blogdesk to the front when clicked', () => {
    const { emit } = signal(quiet, 'linux')
    emit('outbox:changed', item({ state: 'done' }))
    Notification.shown[0]!.emit('click')
    expect(BrowserWindow.created[0]!.focus).toHaveBeenCalled()
  })
})
