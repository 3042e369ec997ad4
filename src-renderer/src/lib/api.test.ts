// api.ts over the contract's real bridge and dispatcher; only the handlers behind them are written here.
import { beforeAll, describe, expect, it } from 'vitest'
import { buildBlogApi, createDispatcher, type AccountSummary, type Failure, type Handlers, type Transport } from '../../../src-shared/contract'
import type { Api, ApiError, askAhead as AskAhead } from './api'

const melody: AccountSummary = {
  id: 'a1',
  label: 'melody @ blog.example',
  atomBase: 'https://blog.example',
  username: 'melody',
  json: null,
  paused: null,
}

/** The failure main sends when the server refuses the password, thrown here as main's dispatcher would see it. */
const refusedPassword: Failure = { code: 'auth', message: 'blog.example refused the username or API password.' }

let accountListings = 0
const handlers = {
  'accounts:list': async () => {
    accountListings++
    return [melody]
  },
  'accounts:add': async () => {
    throw refusedPassword
  },
  'weblogs:list': async () => {
    throw new TypeError('weblogs is not iterable')
  },
} as Partial<Handlers> as Handlers

const changeListeners = new Set<(payload: unknown) => void>()
let transportBroken = false
const dispatch = createDispatcher(handlers, {
  failureOf: (error) => (error === refusedPassword ? refusedPassword : null),
  reportBug: () => undefined,
})
const transport: Transport = {
  invoke: (channel, request) => (transportBroken ? Promise.reject(new Error('IPC channel closed')) : dispatch(channel, request)),
  subscribe: (_event, listener) => {
    changeListeners.add(listener)
    return () => changeListeners.delete(listener)
  },
  pathOf: (file) => `/home/melody/${file.name}`,
}

let api: Api
let ApiErrorClass: typeof ApiError
let askAhead: typeof AskAhead

beforeAll(async () => {
  Object.assign(globalThis, { window: { blog: buildBlogApi(transport) } })
  const module = await import('./api')
  api = module.api
  ApiErrorClass = module.ApiError
  askAhead = module.askAhead
})

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(ApiErrorClass)
  return error as ApiError
}

describe('api', () => {
  it('resolves a successful call to its value', async () => {
    expect(await api.accounts.list()).toEqual([melody])
  })

  it("throws the main process's failure with its code and words", async () => {
    const error = await failureOf(api.accounts.add({ atomBase: 'https://blog.example', username: 'melody', apiPassword: 'x' }))
    expect(error.code).toBe('auth')
    expect(error.message).toBe('blog.example refused the username or API password.')
  })

  it('reports arguments the contract refuses as invalid-argument', async () => {
    const error = await failureOf(api.accounts.add({ atomBase: 'ftp://blog.example', username: 'melody', apiPassword: 'x' }))
    expect(error.code).toBe('invalid-argument')
  })

  it('reports a crash in a handler as a bug, not as something the person did', async () => {
    const error = await failureOf(api.weblogs.list({ accountId: 'a1', refresh: false }))
    expect(error.code).toBe('bug')
    expect(error.message).toContain('weblogs is not iterable')
  })

  it('reports a broken connection to the main process as a bug that asks for a restart', async () => {
    transportBroken = true
    try {
      const error = await failureOf(api.accounts.list())
      expect(error.code).toBe('bug')
      expect(error.message).toContain('Restart Blogdesk')
    } finally {
      transportBroken = false
    }
  })

  it('passes change events through and stops after unsubscribing', () => {
    const received: unknown[] = []
    const unsubscribe = api.accounts.onChanged((accounts) => received.push(accounts))
    for (const listener of changeListeners) listener([melody])
    unsubscribe()
    for (const listener of changeListeners) listener([])
    expect(received).toEqual([[melody]])
  })

  it("gives a dropped file's path synchronously, not as a call to unwrap", () => {
    expect(api.files.pathOf(new File([], 'cat.jpg'))).toBe('/home/melody/cat.jpg')
  })

  it('hands an answer asked ahead to the first identical call only', async () => {
    const before = accountListings
    askAhead('accounts:list', null)
    expect(accountListings).toBe(before + 1)
    expect(await api.accounts.list()).toEqual([melody])
    expect(accountListings).toBe(before + 1)
    await api.accounts.list()
    expect(accountListings).toBe(before + 2)
  })

  it('asks again when an event came before the answer asked ahead was taken', async () => {
    askAhead('accounts:list', null)
    const before = accountListings
    for (const listener of [...changeListeners]) listener([melody])
    await api.accounts.list()
    expect(accountListings).toBe(before + 1)
  })

  it('gives the failure of a call asked ahead to the call that takes it', async () => {
    askAhead('weblogs:list', { accountId: 'a1', refresh: false })
    const error = await failureOf(api.weblogs.list({ accountId: 'a1', refresh: false }))
    expect(error.message).toContain('weblogs is not iterable')
  })
})
