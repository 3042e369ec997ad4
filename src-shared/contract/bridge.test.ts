import { describe, expect, it, vi } from 'vitest'
import { buildBlogApi, createDispatcher, type Handlers, type Transport } from './bridge'
import { channels, events } from './channels'
import type { Failure, FailureCode } from './errors'

const account = { id: 'a1', label: 'melody @ example.com', atomBase: 'https://example.com', username: 'melody', json: null, paused: null }

/** Every channel answered by a handler that fails the test if called, except those given. */
function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const unexpected = Object.fromEntries(
    channels.map((channel) => [channel, async () => Promise.reject(new Error(`${channel} was not expected to be called`))]),
  )
  return { ...unexpected, ...overrides } as Handlers
}

/** A failure a handler explains, as main's own errors do; `failureOf` below is how main would translate it. */
class Explained extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message)
  }
}
const failureOf = (error: unknown): Failure | null => (error instanceof Explained ? { code: error.code, message: error.message } : null)

describe('createDispatcher', () => {
  it('passes a request that fits the contract to its handler and wraps the result', async () => {
    const add = vi.fn(async () => account)
    const dispatch = createDispatcher(handlers({ 'accounts:add': add }), { failureOf })
    const request = { atomBase: ' https://example.com ', username: 'melody', apiPassword: 'pw' }
    expect(await dispatch('accounts:add', request)).toEqual({ ok: true, value: account })
    expect(add).toHaveBeenCalledWith({ atomBase: 'https://example.com', username: 'melody', apiPassword: 'pw' })
  })

  it.each([
    ['an unknown channel', 'fs:read', null, /"fs:read" is not a channel/],
    ['a missing field', 'accounts:add', { atomBase: 'https://x', username: 'm' }, /request\.apiPassword must be text/],
    ['an unknown field', 'weblogs:list', { accountId: 'a', extra: 1 }, /request\.extra is not a known field/],
    ['a non-http URL', 'accounts:add', { atomBase: 'file:///etc/passwd', username: 'm', apiPassword: 'p' }, /http:\/\/ or https:\/\//],
    ['arguments to a channel that takes none', 'accounts:list', { sneaky: true }, /takes no arguments/],
    ['an oversized value', 'weblogs:list', { accountId: 'x'.repeat(65) }, /at most 64 characters/],
    ['a rating out of range', 'lists:add', listItem({ rating: 6 }), /request\.rating must be between 1 and 5/],
    ['an unknown list type', 'lists:add', listItem({ listType: 'video' }), /must be one of music, book, person, link/],
    ['a category that is not text', 'drafts:save', { draftId: 'd1', categories: ['a', 7] }, /request\.categories\[1\] must be text/],
    ['a pasted image that is not bytes', 'media:importBytes', { name: 'a.png', type: 'image/png', bytes: 'iVBOR' }, /binary data/],
    ['an oversized pasted image', 'media:importBytes', { name: 'a.png', type: 'image/png', bytes: new Uint8Array(21 * 1024 * 1024) }, /at most 20 MB/],
    ['a feed slice too large', 'feed:events', { friendId: 'f1', offset: 0, limit: 501 }, /between 1 and 500/],
    ['a javascript: link', 'app:openExternal', { url: 'javascript:alert(1)' }, /http:\/\/ or https:\/\//],
    ['a Trash listing without its weblog', 'drafts:trash', { accountId: 'a1' }, /request\.weblogPostUri must be text/],
    ['a restore from the Trash of no draft', 'drafts:untrash', { draftId: '' }, /request\.draftId/],
    ['a deletion for good of an oversized id', 'drafts:deleteForever', { draftId: 'd'.repeat(65) }, /at most 64 characters/],
    ['a deletion for good of several drafts', 'drafts:deleteForever', { draftId: 'd1', also: 'd2' }, /request\.also is not a known field/],
  ])('refuses %s without calling any handler', async (_case, channel, request, message) => {
    const spy = vi.fn()
    const dispatch = createDispatcher(Object.fromEntries(channels.map((name) => [name, spy])) as unknown as Handlers, { failureOf })
    const outcome = await dispatch(channel, request)
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringMatching(message) } })
    expect(spy).not.toHaveBeenCalled()
  })

  it('passes only the fields of a draft that changed', async () => {
    const save = vi.fn(async () => ({}) as never)
    const dispatch = createDispatcher(handlers({ 'drafts:save': save }), { failureOf })
    expect(await dispatch('drafts:save', { draftId: 'd1', title: 'Hello' })).toMatchObject({ ok: true })
    expect(save).toHaveBeenCalledWith({ draftId: 'd1', title: 'Hello', content: undefined, categories: undefined })
  })

  it('carries the code and words of a failure the handler explains to the renderer', async () => {
    const dispatch = createDispatcher(handlers({ 'accounts:list': async () => Promise.reject(new Explained('offline', 'Could not reach x.')) }), { failureOf })
    expect(await dispatch('accounts:list', undefined)).toEqual({ ok: false, error: { code: 'offline', message: 'Could not reach x.' } })
  })

  it('reports any other failure as a bug, and tells the person their data is safe', async () => {
    const reportBug = vi.fn()
    const dispatch = createDispatcher(handlers({ 'accounts:list': async () => Promise.reject(new TypeError('boom')) }), { failureOf, reportBug })
    const outcome = await dispatch('accounts:list', null)
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bug', message: expect.stringMatching(/boom.*data is safe/) } })
    expect(reportBug).toHaveBeenCalledWith(expect.any(TypeError))
  })
})

function listItem(overrides: Record<string, unknown>) {
  return { accountId: 'a1', collectionUri: 'https://x/list', listType: 'book', fields: { isbn: '123' }, rating: 3, notes: null, ...overrides }
}

describe('buildBlogApi', () => {
  it('offers one method per channel, one listener per event, and the path of a file; nothing else', () => {
    const transport: Transport = { invoke: vi.fn(), subscribe: vi.fn(), pathOf: vi.fn() }
    const api = buildBlogApi(transport) as unknown as Record<string, Record<string, unknown>>
    const offered = Object.entries(api).flatMap(([space, methods]) => Object.keys(methods).map((method) => `${space}.${method}`))
    expect(offered.sort()).toEqual(
      [
        ...channels.map((channel) => channel.replace(':', '.')),
        ...events.map((event) => event.replace(/:(.)/, (_m, first: string) => `.on${first.toUpperCase()}`)),
        'files.pathOf',
      ].sort(),
    )
    expect(Object.isFrozen(api)).toBe(true)
  })

  it('sends calls over the transport and hands listeners the payload alone', async () => {
    const delivered: unknown[] = []
    let forward: (payload: unknown) => void = () => undefined
    const unsubscribe = vi.fn()
    const transport: Transport = {
      pathOf: vi.fn(),
      invoke: vi.fn(async () => ({ ok: true, value: [] }) as const),
      subscribe: vi.fn((_event, listener) => {
        forward = listener
        return unsubscribe
      }),
    }
    const api = buildBlogApi(transport)
    await api.weblogs.list({ accountId: 'a1', refresh: false })
    await api.accounts.list()
    expect(transport.invoke).toHaveBeenNthCalledWith(1, 'weblogs:list', { accountId: 'a1', refresh: false })
    expect(transport.invoke).toHaveBeenNthCalledWith(2, 'accounts:list', null)

    const stop = api.accounts.onChanged((accounts) => delivered.push(accounts))
    forward([account])
    expect(delivered).toEqual([[account]])
    stop()
    expect(unsubscribe).toHaveBeenCalled()
  })
})

describe('files.pathOf', () => {
  it('asks the transport for the path of a real File only', () => {
    const transport: Transport = { invoke: vi.fn(), subscribe: vi.fn(), pathOf: vi.fn(() => '/home/melody/cat.jpg') }
    const api = buildBlogApi(transport)
    const file = new File([new Uint8Array([1])], 'cat.jpg')
    expect(api.files.pathOf(file)).toBe('/home/melody/cat.jpg')
    expect(transport.pathOf).toHaveBeenCalledWith(file)
    expect(() => api.files.pathOf({ name: 'cat.jpg' } as unknown as File)).toThrow(/needs a File/)
  })
})
