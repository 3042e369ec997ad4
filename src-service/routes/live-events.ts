// GET /users/<id>/events/live (docs/PROTOCOL.md, "Live events"): a `text/event-stream` of one user's events as the
// service records them, each as `id: <urlId>` and `data: <the Event JSON events.json gives>`. `Last-Event-ID` resumes
// after that event. Streams are told of new events in-process by the store (Events.onRecorded); reaching streams held
// by other instances of the service is issue 16's multi-instance fan-out.
import { PassThrough } from 'node:stream'
import { JsonGraph } from '../json/graph'
import type { EventRecord, Person, Store, StreamCursor } from '../store'
import { HttpError, type Reply } from './reply'

export interface LiveStreamOptions {
  /** How often an idle stream gets a comment line, so clients and proxies know it still lives. */
  heartbeatMs?: number
  /** Streams one client (its API key when signed, else its address) may hold open; more are 429. */
  perClient?: number
  /** Streams open in all; more are 503. */
  total?: number
}

export const DEFAULT_HEARTBEAT_MS = 15_000
// One stream per followed friend: a person following a dozen friends on one service should not be refused.
export const DEFAULT_STREAMS_PER_CLIENT = 16
export const DEFAULT_STREAMS_TOTAL = 1_000
/** What the stream's `retry:` field asks clients to wait before reconnecting. */
const RECONNECT_MS = 2_000
/** Events read per query while a stream catches up. */
const BATCH = 200
/** A client that reads nothing while this much waits for it is cut off; it resumes by Last-Event-ID when it returns. */
const MAX_UNREAD_BYTES = 1024 * 1024

export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  // A stream ends only when the service stops or the client goes; its connection is not reused after it.
  Connection: 'close',
}

interface OpenStream {
  actorId: number
  client: string
  origin: string
  /** Where in the actor's stream the last event sent stands (or the newest one when the stream opened). */
  after: StreamCursor
  body: PassThrough
  /** A catch-up is under way; `lookAgain` says events came meanwhile, so it runs once more when done. */
  catchingUp: boolean
  lookAgain: boolean
}

export class LiveEvents {
  readonly #store: Store
  readonly #heartbeatMs: number
  readonly #perClient: number
  readonly #total: number
  readonly #streams = new Set<OpenStream>()
  readonly #heldBy = new Map<string, number>()
  readonly #stopListening: () => void
  #heartbeat: NodeJS.Timeout | null = null
  #closed = false

  constructor(
    store: Store,
    { heartbeatMs = DEFAULT_HEARTBEAT_MS, perClient = DEFAULT_STREAMS_PER_CLIENT, total = DEFAULT_STREAMS_TOTAL }: LiveStreamOptions = {},
  ) {
    this.#store = store
    this.#heartbeatMs = heartbeatMs
    this.#perClient = perClient
    this.#total = total
    this.#stopListening = store.events.onRecorded((actors) => this.#deliver(actors))
  }

  /** How many streams are open. */
  get size(): number {
    return this.#streams.size
  }

  /**
   * Opens a stream of `person`'s events for `client`. Without `lastEventId` it carries what is recorded from now on;
   * with it, first every event of theirs recorded after that one.
   */
  async open(person: Person, client: string, origin: string, lastEventId: string | null): Promise<Reply> {
    this.#checkRoomFor(client)
    const after = lastEventId === null ? await this.#newest(person) : await this.#resumeAfter(person, lastEventId)
    // Checked again: other streams may have opened while the cursor was read.
    const held = this.#checkRoomFor(client)
    const stream: OpenStream = { actorId: person.id, client, origin, after, body: new PassThrough(), catchingUp: false, lookAgain: false }
    this.#streams.add(stream)
    this.#heldBy.set(client, held + 1)
    stream.body.once('close', () => this.#forget(stream))
    // Written at once, so the client has the headers without waiting for the first event.
    stream.body.write(`retry: ${RECONNECT_MS}\n\n`)
    // Also sends what was recorded while the cursor was read, before the stream was there to be told.
    this.#catchUp(stream, new Map())
    this.#heartbeat ??= setInterval(() => this.#beat(), this.#heartbeatMs).unref()
    return { status: 200, headers: { ...EVENT_STREAM_HEADERS }, body: stream.body }
  }

  /** Refuses a stream while stopping or beyond the limits; returns how many `client` holds. */
  #checkRoomFor(client: string): number {
    if (this.#closed) throw new HttpError(503, 'The service is stopping. Open the stream again in a moment.', { 'Retry-After': '5' })
    const held = this.#heldBy.get(client) ?? 0
    if (held >= this.#perClient) {
      throw new HttpError(
        429,
        `This client already holds ${held} live streams, the most this service keeps open for one client. ` +
          'Close one before opening another, or poll events.json.',
      )
    }
    if (this.#streams.size >= this.#total) {
      throw new HttpError(503, `This service keeps at most ${this.#total} live streams open. Poll events.json meanwhile.`, {
        'Retry-After': '60',
      })
    }
    return held
  }

  /** Ends every stream and refuses new ones: a stream never ends by itself, so a stopping server would wait for it. */
  close(): void {
    this.#closed = true
    this.#stopListening()
    for (const stream of this.#streams) stream.body.end()
    this.#stopHeartbeat()
  }

  /** The top of the person's stream; before any event when there is none. */
  async #newest(person: Person): Promise<StreamCursor> {
    const [newest] = await this.#store.events.streamPage(person.id, null, 1)
    return newest ? { published: newest.published, id: newest.id } : { published: '', id: 0 }
  }

  async #resumeAfter(person: Person, lastEventId: string): Promise<StreamCursor> {
    const event = await this.#store.events.find(lastEventId)
    if (!event || event.actorId !== person.id) {
      throw new HttpError(
        400,
        `Last-Event-ID ${lastEventId} is not one of ${person.username}'s events here (it may have been deleted). ` +
          "Read events.json for what you missed, then open the stream again without it.",
      )
    }
    return { published: event.published, id: event.id }
  }

  #deliver(actors: ReadonlySet<number>): void {
    // Shared by every stream this turn, so an event many streams carry is rendered once.
    const messages = new Map<string, string>()
    for (const stream of this.#streams) if (actors.has(stream.actorId)) this.#catchUp(stream, messages)
  }

  /**
   * Sends the stream every event of its actor that is newer than the last one it got. One catch-up per stream at a
   * time, so none is sent twice; a call while one runs makes it look once more when done.
   */
  #catchUp(stream: OpenStream, messages: Map<string, string>): void {
    if (stream.catchingUp) {
      stream.lookAgain = true
      return
    }
    stream.catchingUp = true
    void this.#sendNewer(stream, messages)
      .catch((error: unknown) => {
        // Out here nobody would catch it: the stream ends, and its client reconnects with its Last-Event-ID.
        console.error('A live events stream could not be brought up to date:', error)
        stream.body.destroy()
      })
      .finally(() => {
        stream.catchingUp = false
        if (!stream.lookAgain) return
        stream.lookAgain = false
        this.#catchUp(stream, new Map())
      })
  }

  async #sendNewer(stream: OpenStream, messages: Map<string, string>): Promise<void> {
    for (;;) {
      const records = await this.#store.events.newerThan(stream.actorId, stream.after, BATCH)
      const unrendered = records.filter((record) => !messages.has(messageKey(stream.origin, record)))
      const graph = new JsonGraph(this.#store, stream.origin)
      for (const record of unrendered) {
        // An event whose object is gone meanwhile is left out, as events.json leaves it out.
        const document = await graph.event(record)
        messages.set(messageKey(stream.origin, record), document ? `id: ${record.urlId}\ndata: ${JSON.stringify(document)}\n\n` : '')
      }
      for (const record of records) {
        const message = messages.get(messageKey(stream.origin, record))!
        if (message !== '') this.#write(stream, message)
        stream.after = { published: record.published, id: record.id }
      }
      if (records.length < BATCH) return
    }
  }

  #beat(): void {
    for (const stream of this.#streams) this.#write(stream, ': heartbeat\n\n')
  }

  #write(stream: OpenStream, text: string): void {
    // A stream cut off or ended stays in the set until its 'close', a tick later; nothing more is written to it.
    if (stream.body.destroyed || stream.body.writableEnded) return
    if (stream.body.writableLength > MAX_UNREAD_BYTES) {
      stream.body.destroy()
      return
    }
    stream.body.write(text)
  }

  #forget(stream: OpenStream): void {
    if (!this.#streams.delete(stream)) return
    const held = (this.#heldBy.get(stream.client) ?? 1) - 1
    if (held === 0) this.#heldBy.delete(stream.client)
    else this.#heldBy.set(stream.client, held)
    if (this.#streams.size === 0) this.#stopHeartbeat()
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat)
    this.#heartbeat = null
  }
}

function messageKey(origin: string, record: EventRecord): string {
  return `${origin} ${record.id}`
}
