import type { IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  channels,
  type AccountSummary,
  type Channel,
  type Envelope,
  type Event,
  type Events,
  type Handlers,
} from '../../src-shared/contract'
import { CoreError, type Core } from '../core'
import { fake } from '../platform/testing/fake-electron'
import { registerIpc, type Renderers } from '.'

vi.mock('electron', () => import('../platform/testing/fake-electron'))

const pageUrl = 'file:///opt/blogdesk/out/renderer/index.html'
const melody: AccountSummary = {
  id: 'a1',
  label: 'melody @ 127.0.0.1:4567',
  atomBase: 'http://127.0.0.1:4567',
  username: 'melody',
  json: null,
  paused: null,
}

interface FakeFrame {
  processId: number
  routingId: number
  url: string
  detached: boolean
}

function fakeContents(mainFrame: FakeFrame) {
  return { mainFrame, destroyed: false, isDestroyed() { return this.destroyed }, send: vi.fn() }
}

function fakeCore() {
  const listeners = new Set<(event: Event, payload: unknown) => void>()
  // Every channel answered by a spy, so a test can tell which handlers a call reached.
  const handlers = {
    ...Object.fromEntries(channels.map((channel) => [channel, vi.fn(async () => null)])),
    'accounts:list': vi.fn(async () => [melody]),
    'accounts:add': vi.fn(async () => melody),
    'weblogs:list': vi.fn(async () => []),
  } as unknown as { [C in Channel]: Handlers[C] & ReturnType<typeof vi.fn> }
  const core: Core = {
    handlers,
    onEvent(listener) {
      listeners.add(listener as (event: Event, payload: unknown) => void)
      return () => listeners.delete(listener as (event: Event, payload: unknown) => void)
    },
    // Only the handlers reach core's parts.
    sync: {} as Core['sync'],
    accounts: {} as Core['accounts'],
    feed: {} as Core['feed'],
    close: async () => undefined,
  }
  const emit = <E extends Event>(event: E, payload: Events[E]) => {
    for (const listener of listeners) listener(event, payload)
  }
  return { core, handlers, emit, listenerCount: () => listeners.size }
}

let topFrame: FakeFrame
let contents: ReturnType<typeof fakeContents>
let renderers: Renderers
let core: ReturnType<typeof fakeCore>
let unregister: () => void

beforeEach(() => {
  fake.reset()
  topFrame = { processId: 4, routingId: 1, url: pageUrl, detached: false }
  contents = fakeContents(topFrame)
  renderers = {
    webContents: () => [contents as unknown as WebContents],
    ownsUrl: (url) => url.split('#')[0] === pageUrl,
  }
  core = fakeCore()
  unregister = registerIpc(core.core, renderers, { 'app:readyToQuit': async () => null })
})

afterEach(() => {
  unregister()
  vi.restoreAllMocks()
})

/** What ipcRenderer.invoke(channel, request) from `frame` inside `sender` would get back. */
async function invoke(
  channel: string,
  request: unknown,
  from: { frame?: FakeFrame | null; sender?: unknown } = {},
): Promise<Envelope<unknown>> {
  const handler = fake.ipcHandlers.get(channel)
  if (!handler) throw new Error(`no handler for ${channel}`)
  const frame = from.frame === undefined ? topFrame : from.frame
  const event = {
    sender: from.sender ?? contents,
    senderFrame: frame as WebFrameMain | null,
    processId: frame?.processId ?? 0,
    frameId: frame?.routingId ?? 0,
  } as unknown as IpcMainInvokeEvent
  return handler(event, request) as Promise<Envelope<unknown>> | Envelope<unknown>
}

function expectRefused(outcome: Envelope<unknown>) {
  expect(outcome).toEqual({ ok: false, error: { code: 'rejected', message: expect.stringMatching(/own window/) } })
  for (const handler of Object.values(core.handlers)) expect(handler).not.toHaveBeenCalled()
}

describe('registration', () => {
  it('answers every channel of the contract, and nothing else', () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual([...channels].sort())
  })

  it('removes every handler and stops forwarding events when undone', () => {
    unregister()
    expect(fake.ipcHandlers.size).toBe(0)
    expect(core.listenerCount()).toBe(0)
    core.emit('accounts:changed', [melody])
    expect(contents.send).not.toHaveBeenCalled()
    unregister = registerIpc(core.core, renderers, { 'app:readyToQuit': async () => null })
    expect(fake.ipcHandlers.size).toBe(channels.length)
  })
})

describe('calls from our page', () => {
  it("reach core's handler and return its value in an envelope", async () => {
    expect(await invoke('accounts:list', null)).toEqual({ ok: true, value: [melody] })
    expect(core.handlers['accounts:list']).toHaveBeenCalledOnce()
  })

  it('hand core the checked request', async () => {
    const request = { atomBase: 'http://127.0.0.1:4567', username: 'melody', apiPassword: 'secret' }
    expect(await invoke('accounts:add', request)).toEqual({ ok: true, value: melody })
    expect(core.handlers['accounts:add']).toHaveBeenCalledWith(request)
  })

  it('still count as ours after an in-page route change', async () => {
    topFrame.url = `${pageUrl}#/accounts`
    expect(await invoke('accounts:list', null)).toMatchObject({ ok: true })
  })

  it("turn core's CoreError into a failure the renderer can branch on", async () => {
    core.handlers['weblogs:list'].mockRejectedValueOnce(new CoreError('auth', 'The server refused the username or API password.'))
    expect(await invoke('weblogs:list', { accountId: 'a1', refresh: false })).toEqual({
      ok: false,
      error: { code: 'auth', message: 'The server refused the username or API password.' },
    })
  })

  it('answer any other error of core as a bug, and report it', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    core.handlers['weblogs:list'].mockRejectedValueOnce(new TypeError('weblogs is not iterable'))
    expect(await invoke('weblogs:list', { accountId: 'a1', refresh: false })).toMatchObject({
      ok: false,
      error: { code: 'bug', message: expect.stringMatching(/weblogs is not iterable.*data is safe/) },
    })
    expect(reported).toHaveBeenCalledWith(expect.any(TypeError))
  })

  it('never reach core with arguments that break the contract', async () => {
    const outcome = await invoke('weblogs:list', { accountId: 'a1', refresh: false, sql: 'DROP TABLE accounts' })
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid-argument' } })
    expect(core.handlers['weblogs:list']).not.toHaveBeenCalled()
  })
})

describe('calls from anywhere else are refused without reaching core', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })

  it.each(channels)('%s from a foreign page in our window', async (channel: Channel) => {
    topFrame.url = 'https://evil.example/'
    expectRefused(await invoke(channel, null))
  })

  it('a subframe inside our page, even one showing our URL', async () => {
    const subframe = { ...topFrame, routingId: 7 }
    expectRefused(await invoke('accounts:list', null, { frame: subframe }))
  })

  it('a frame in another renderer process', async () => {
    expectRefused(await invoke('accounts:list', null, { frame: { ...topFrame, processId: 9 } }))
  })

  it('a call whose frame is gone', async () => {
    expectRefused(await invoke('accounts:list', null, { frame: null }))
  })

  it('a frame that has been detached by a navigation', async () => {
    expectRefused(await invoke('accounts:list', null, { frame: { ...topFrame, detached: true } }))
  })

  it('a window Blogdesk did not open', async () => {
    const stranger = fakeContents({ ...topFrame })
    expectRefused(await invoke('accounts:list', null, { frame: stranger.mainFrame, sender: stranger }))
  })

  it('a window that has been destroyed', async () => {
    contents.destroyed = true
    expectRefused(await invoke('accounts:list', null))
  })

  it('and each refusal leaves a trace in the log', async () => {
    topFrame.url = 'https://evil.example/'
    await invoke('accounts:list', null)
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('https://evil.example/'))
  })
})

describe("core's events", () => {
  it('reach our page', () => {
    core.emit('accounts:changed', [melody])
    expect(contents.send).toHaveBeenCalledWith('accounts:changed', [melody])
  })

  it('reach no page that is not ours, nor a closed window', () => {
    topFrame.url = 'https://evil.example/'
    core.emit('accounts:changed', [melody])
    topFrame.url = pageUrl
    contents.destroyed = true
    core.emit('accounts:changed', [melody])
    expect(contents.send).not.toHaveBeenCalled()
  })

  it('outside the contract are not forwarded', () => {
    core.emit('accounts:secrets' as Event, [melody])
    expect(contents.send).not.toHaveBeenCalled()
  })
})
