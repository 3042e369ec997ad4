// Calls and one-way messages between the main thread and the core thread, over a worker's port. Either side may ask
// the other (a method by name, its answer or its error coming back) and tell it something (a topic and a payload).
// Values cross by structured clone; errors cross as their name, message, code and cause, and come back as the same
// classes where those matter on the other side (CoreError for the renderer's failures, DataInUseError for the
// dialog, TypeError and the transport's codes for fetch). What one side sends in a turn crosses as one message, in
// order: a flushed post's bookkeeping tells the main thread of several changes at once, and each message costs both
// threads a wake-up and a dispatch.
import type { TransferListItem } from 'node:worker_threads'
import { CoreError, DataInUseError } from '../core'

/** The part of a worker_threads Worker or MessagePort that a peer uses. */
export interface Port {
  postMessage(value: unknown, transferList?: readonly TransferListItem[]): void
  on(event: 'message', listener: (value: unknown) => void): unknown
}

/** An error as it crosses: enough for the other side to tell what happened and to act on it. */
export interface WireError {
  name: string
  /** The nearest of the classes the other side tells apart (a RequestFailure is a CoreError), if any. */
  kind?: string
  message: string
  stack?: string
  code?: string
  cause?: WireError
  errors?: WireError[]
}

type Message =
  | { type: 'ask'; id: number; method: string; args: unknown[] }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'fail'; id: number; error: WireError }
  | { type: 'tell'; topic: string; payload: unknown }

export type Methods = Record<string, (...args: never[]) => unknown>

/** What a method returns when its answer carries something to move rather than copy (a stream). */
export class Transfer<T> {
  constructor(
    readonly value: T,
    readonly list: readonly TransferListItem[],
  ) {}
}

export class Peer {
  readonly #port: Port
  readonly #methods: Methods = {}
  readonly #listeners = new Map<string, (payload: never) => void>()
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  /** Messages of this turn not yet sent, and what they transfer. */
  #outgoing: Message[] = []
  #transfers: TransferListItem[] = []
  #nextId = 0
  /** Set once the other side is gone: every call since fails with it. */
  #gone: Error | null = null

  constructor(port: Port) {
    this.#port = port
    port.on('message', (batch) => {
      for (const message of batch as Message[]) {
        try {
          this.#receive(message)
        } catch (error) {
          // A listener that throws must not cost the messages after it; its error is thrown on its own, as before.
          process.nextTick(() => {
            throw error
          })
        }
      }
    })
  }

  /** Answers the other side's calls of these methods. */
  serve(methods: Methods): void {
    Object.assign(this.#methods, methods)
  }

  /** Calls `listener` with each payload told under `topic`. */
  listen<T>(topic: string, listener: (payload: T) => void): void {
    this.#listeners.set(topic, listener as (payload: never) => void)
  }

  ask<T>(method: string, args: unknown[] = [], transferList: readonly TransferListItem[] = []): Promise<T> {
    if (this.#gone) return Promise.reject(this.#gone)
    const id = ++this.#nextId
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.#send({ type: 'ask', id, method, args }, transferList)
    })
  }

  tell(topic: string, payload: unknown = null): void {
    if (!this.#gone) this.#send({ type: 'tell', topic, payload })
  }

  /** The other side is gone: calls waiting for it, and every later one, fail with `error`. */
  lose(error: Error): void {
    this.#gone ??= error
    for (const { reject } of this.#pending.values()) reject(this.#gone)
    this.#pending.clear()
  }

  #receive(message: Message): void {
    switch (message.type) {
      case 'ask':
        return void this.#answer(message.id, message.method, message.args)
      case 'tell':
        return this.#listeners.get(message.topic)?.(message.payload as never)
      case 'answer':
      case 'fail': {
        const pending = this.#pending.get(message.id)
        this.#pending.delete(message.id)
        if (message.type === 'answer') pending?.resolve(message.value)
        else pending?.reject(fromWire(message.error))
      }
    }
  }

  async #answer(id: number, method: string, args: unknown[]): Promise<void> {
    try {
      const served = this.#methods[method]
      if (!served) throw new Error(`Nothing answers "${method}" on this side.`)
      const value = await (served as (...args: unknown[]) => unknown)(...args)
      if (value instanceof Transfer) this.#send({ type: 'answer', id, value: value.value }, value.list)
      else this.#send({ type: 'answer', id, value })
    } catch (error) {
      this.#send({ type: 'fail', id, error: toWire(error) })
    }
  }

  /** Queues `message` for the end of this turn's work (its microtasks), when the turn's messages leave together. */
  #send(message: Message, transferList: readonly TransferListItem[] = []): void {
    if (this.#outgoing.length === 0) queueMicrotask(() => this.#flush())
    this.#outgoing.push(message)
    this.#transfers.push(...transferList)
  }

  #flush(): void {
    const batch = this.#outgoing
    const transfers = this.#transfers
    this.#outgoing = []
    this.#transfers = []
    this.#port.postMessage(batch, transfers)
  }
}

/** The classes the other side tells errors apart by, most specific first; anything else comes back as an Error. */
const CLASSES: Record<string, abstract new (...args: never[]) => Error> = { DataInUseError, CoreError, TypeError, RangeError }

/** Causes followed this deep at most, as the transport's error codes are (atom/failure.ts). */
const CAUSE_DEPTH = 4

export function toWire(error: unknown, depth = 0): WireError {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return { name: 'Error', message: String(error) }
  const { name, message, stack, code, cause, errors } = error as Partial<Error> & { code?: unknown; errors?: unknown }
  const wire: WireError = { name: String(name ?? 'Error'), message: String(message ?? '') }
  const kind = Object.keys(CLASSES).find((candidate) => error instanceof CLASSES[candidate]!)
  if (kind) wire.kind = kind
  if (typeof stack === 'string') wire.stack = stack
  if (typeof code === 'string') wire.code = code
  if (depth < CAUSE_DEPTH && cause !== undefined) wire.cause = toWire(cause, depth + 1)
  if (depth < CAUSE_DEPTH && Array.isArray(errors)) wire.errors = errors.map((inner) => toWire(inner, depth + 1))
  return wire
}

export function fromWire(wire: WireError): Error {
  const error = new Error(wire.message)
  if (wire.kind && CLASSES[wire.kind]) Object.setPrototypeOf(error, CLASSES[wire.kind]!.prototype)
  Object.defineProperty(error, 'name', { value: wire.name, configurable: true, writable: true })
  if (wire.stack !== undefined) error.stack = wire.stack
  if (wire.code !== undefined) Object.defineProperty(error, 'code', { value: wire.code, enumerable: true })
  if (wire.cause) error.cause = fromWire(wire.cause)
  if (wire.errors) Object.defineProperty(error, 'errors', { value: wire.errors.map(fromWire) })
  return error
}
