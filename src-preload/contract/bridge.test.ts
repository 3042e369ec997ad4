import { describe, expect, it, vi } from 'vitest'
import { buildBlogApi, createDispatcher, type Handlers, type Transport } from './bridge'
import { channels, events } from './channels'
import { BlogdeskError } from './errors'

const account = { id: 'a1', label: 'melody @ example.com', atomBase: 'https://example.com', username: 'melody' }

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  return {
    'accounts:list': async () => [account],
    'accounts:add': async () => account,
    'weblogs:list': async () => [],
    ...overrides,
  }
}

describe('createDispatcher', () => {
  it('passes a request that fits the contract to its handler and wraps the result', async () => {
    const add = vi.fn(async () => account)
    const dispatch = createDispatcher(handlers({ 'accounts:add': add }))
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
  ])('refuses %s without calling any handler', async (_case, channel, request, message) => {
    const spy = vi.fn()
    const dispatch = createDispatcher(handlers({ 'accounts:list': spy, 'accounts:add': spy, 'weblogs:list': spy }))
    const outcome = await dispatch(channel, request)
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringMatching(message) } })
    expect(spy).not.toHaveBeenCalled()
  })

  it("carries a BlogdeskError's code and words to the renderer", async () => {
    const dispatch = createDispatcher(handlers({ 'accounts:list': async () => Promise.reject(new BlogdeskError('offline', 'Could not reach x.')) }))
    expect(await dispatch('accounts:list', undefined)).toEqual({ ok: false, error: { code: 'offline', message: 'Could not reach x.' } })
  })

  it('reports any other failure as a bug, and tells the person their data is safe', async () => {
    const reportBug = vi.fn()
    const dispatch = createDispatcher(handlers({ 'accounts:list': async () => Promise.reject(new TypeError('boom')) }), reportBug)
    const outcome = await dispatch('accounts:list', null)
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bug', message: expect.stringMatching(/boom.*data is safe/) } })
    expect(reportBug).toHaveBeenCalledWith(expect.any(TypeError))
  })
})

describe('buildBlogApi', () => {
  it('offers one method per channel and one listener per event, and nothing else', () => {
    const transport: Transport = { invoke: vi.fn(), subscribe: vi.fn() }
    const api = buildBlogApi(transport) as unknown as Record<string, Record<string, unknown>>
    const offered = Object.entries(api).flatMap(([space, methods]) => Object.keys(methods).map((method) => `${space}.${method}`))
    expect(offered.sort()).toEqual(
      [
        ...channels.map((channel) => channel.replace(':', '.')),
        ...events.map((event) => event.replace(/:(.)/, (_m, first: string) => `.on${first.toUpperCase()}`)),
      ].sort(),
    )
    expect(Object.isFrozen(api)).toBe(true)
  })

  it('sends calls over the transport and hands listeners the payload alone', async () => {
    const delivered: unknown[] = []
    let forward: (payload: unknown) => void = () => undefined
    const unsubscribe = vi.fn()
    const transport: Transport = {
      invoke: vi.fn(async () => ({ ok: true, value: [] }) as const),
      subscribe: vi.fn((_event, listener) => {
        forward = listener
        return unsubscribe
      }),
    }
    const api = buildBlogApi(transport)
    await api.weblogs.list({ accountId: 'a1' })
    await api.accounts.list()
    expect(transport.invoke).toHaveBeenNthCalledWith(1, 'weblogs:list', { accountId: 'a1' })
    expect(transport.invoke).toHaveBeenNthCalledWith(2, 'accounts:list', null)

    const stop = api.accounts.onChanged((accounts) => delivered.push(accounts))
    forward([account])
    expect(delivered).toEqual([[account]])
    stop()
    expect(unsubscribe).toHaveBeenCalled()
  })
})
