// Reads a text/event-stream (HTML's server-sent events) piece by piece as it arrives: lines end with CR, LF or CRLF,
// a blank line completes a message, `:` lines are comments (heartbeats), `id:` is kept for the messages after it.
// Only plain messages (no `event:` type, or `message`) are given back: those are what the live events stream sends.

export interface StreamMessage {
  /** The last `id:` the stream gave, at or before this message; null when none. */
  id: string | null
  data: string
}

/** A line this long without its end is no event stream; reading stops instead of buffering without bound. */
const MAX_LINE_CHARS = 1024 * 1024

export class EventStreamParser {
  #buffer = ''
  #data: string[] = []
  #type = ''
  #lastId: string | null = null
  /** The reconnection time the stream asked for (`retry:`), in ms; null until it does. */
  retryMs: number | null = null

  /** Takes the next text of the stream; returns the messages it completed. */
  push(text: string): StreamMessage[] {
    this.#buffer += text
    const messages: StreamMessage[] = []
    for (let end = /\r\n|\r|\n/.exec(this.#buffer); end; end = /\r\n|\r|\n/.exec(this.#buffer)) {
      // A CR at the very end may be the first half of a CRLF still on its way.
      if (end[0] === '\r' && end.index === this.#buffer.length - 1) break
      const line = this.#buffer.slice(0, end.index)
      this.#buffer = this.#buffer.slice(end.index + end[0].length)
      const message = this.#take(line)
      if (message) messages.push(message)
    }
    if (this.#buffer.length > MAX_LINE_CHARS) throw new Error(`the event stream sent a line longer than ${MAX_LINE_CHARS} characters`)
    return messages
  }

  #take(line: string): StreamMessage | null {
    if (line === '') return this.#dispatch()
    if (line.startsWith(':')) return null
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'data') this.#data.push(value)
    else if (field === 'event') this.#type = value
    else if (field === 'id' && !value.includes('\0')) this.#lastId = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value)
    return null
  }

  #dispatch(): StreamMessage | null {
    const message = this.#data.length > 0 && (this.#type === '' || this.#type === 'message') ? { id: this.#lastId, data: this.#data.join('\n') } : null
    this.#data = []
    this.#type = ''
    return message
  }
}
