// Every IPC channel and event, declared once. Adding a channel here makes the compiler demand its request check
// (below), its main-process handler (Handlers) and its preload method (BlogApi).
import { httpUrl, nothing, record, text, type Check } from './checks'
import type { AccountSummary, NewAccount, Weblog, WeblogRef } from './shapes'

export interface Channels {
  'accounts:list': { request: null; result: AccountSummary[] }
  'accounts:add': { request: NewAccount; result: AccountSummary }
  'weblogs:list': { request: WeblogRef; result: Weblog[] }
}

export interface Events {
  'accounts:changed': AccountSummary[]
}

export type Channel = keyof Channels
export type Event = keyof Events
export type RequestOf<C extends Channel> = Channels[C]['request']
export type ResultOf<C extends Channel> = Channels[C]['result']

const accountId = text({ maxLength: 64 })

export const requestChecks: { [C in Channel]: Check<RequestOf<C>> } = {
  'accounts:list': nothing,
  'accounts:add': record<NewAccount>({
    atomBase: httpUrl,
    username: text({ maxLength: 255 }),
    apiPassword: text({ maxLength: 1024 }),
  }),
  'weblogs:list': record<WeblogRef>({ accountId }),
}

export const eventNames: { [E in Event]: true } = {
  'accounts:changed': true,
}

export const channels = Object.keys(requestChecks) as Channel[]
export const events = Object.keys(eventNames) as Event[]
