// POSTing an entry that carries a file (a photo, an upload) as base64, streamed: the file is read in chunks of a
// multiple of 3 bytes, so each chunk's base64 stands alone, and each is written only when the socket has taken the
// one before — never the whole file, let alone its base64, in memory. The body's exact length is known before a
// byte is sent (the entry around the content, plus 4 characters per 3 bytes), so it goes with a Content-Length:
// CGI servers such as Movable Type's cannot read a chunked body.
//
// This goes through node:http(s) rather than the injected fetch, which cannot stream a body of a declared length
// (Electron's net.fetch sends a streamed body chunked) nor tell whether the body was all sent when the connection
// broke — the difference between "safe to send again" and "check first". The cost: this path uses Node's own
// certificate store and no system proxy settings.
import type { FileHandle } from 'node:fs/promises'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { ATOM_MEDIA_TYPE, type WsseCredentials } from '../../../src-protocol'
import { CoreError } from '../errors'
import { base64Length, encodeBase64Into } from './base64'
import { answerFailure, hostOf, RequestFailure, transportFailure, type SendProgress } from './failure'
import { applyPatches, type Patch } from './gps'
import { absoluteLocation, answerText, atomHeaders, MAX_RESPONSE_BYTES, type AtomResponse } from './http'

/** 192 KiB: a multiple of 3, so no chunk but the last needs base64 padding. */
export const FILE_CHUNK_BYTES = 192 * 1024
/** Buffers for the base64: one being filled while the socket still has the others. */
const BASE64_BUFFERS = 3

export interface FileToSend {
  handle: FileHandle
  /** The file's size when it was opened; a file that changes while it is sent stops the request. */
  size: number
  /** Changes to the file's bytes on the way out (GPS removal); they keep its size. */
  patches: readonly Patch[]
  /** How the person knows the file, for messages. */
  name: string
}

export interface FileEntryPost {
  url: string
  credentials: WsseCredentials
  idempotencyKey: string
  /** The entry document up to the content's base64 (ending with `<content …>`) and after it. */
  entryHead: string
  entryTail: string
  file: FileToSend
  timeoutMs: number
  /** File bytes whose base64 the socket has taken, out of the file's size. */
  onProgress?: (sent: number, total: number) => void
}

/** Sends the entry with the file's base64 in it; resolves with a 2xx answer, throws a RequestFailure otherwise. */
export function postFileEntry(post: FileEntryPost): Promise<AtomResponse> {
  const head = Buffer.from(post.entryHead, 'utf8')
  const tail = Buffer.from(post.entryTail, 'utf8')
  const send = new URL(post.url).protocol === 'https:' ? httpsRequest : httpRequest
  const request = send(post.url, {
    method: 'POST',
    headers: {
      ...atomHeaders(post.credentials, post.idempotencyKey),
      'Content-Type': ATOM_MEDIA_TYPE,
      'Content-Length': String(head.length + base64Length(post.file.size) + tail.length),
    },
    // Unlike setTimeout, this also bounds the connecting.
    timeout: post.timeoutMs,
  })
  return new Promise<AtomResponse>((resolve, reject) => {
    const exchange = new Exchange(request, post, resolve, reject)
    exchange.writeBody(head, tail).catch((error: unknown) => exchange.fail(error))
  })
}

/** One request's state: how far the body got, whether the server answered, and settling the outcome once. */
class Exchange {
  #progress: SendProgress = 'not-connected'
  #answered = false
  #settled = false
  /** Settles when the request is over, however it ended: nothing waits for the socket after that. */
  readonly #closed: Promise<void>

  constructor(
    readonly request: ClientRequest,
    readonly post: FileEntryPost,
    readonly resolve: (response: AtomResponse) => void,
    readonly reject: (error: unknown) => void,
  ) {
    request.on('socket', (socket) => {
      if (!socket.connecting) this.#progress = 'body-incomplete'
      else socket.once('connect', () => (this.#progress = 'body-incomplete'))
    })
    // Every byte of the body is with the operating system: from here on the server may have it all.
    request.on('finish', () => (this.#progress = 'maybe-sent'))
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })))
    request.on('error', (error) => {
      // An early answer (a refusal before the body was read) ends the request; its answer decides.
      if (!this.#answered) this.fail(transportFailure(error, post.url, this.#progress, post.timeoutMs))
    })
    request.on('response', (response) => this.#readAnswer(response))
    this.#closed = new Promise((resolve) => request.once('close', () => resolve()))
  }

  get #stopped(): boolean {
    return this.#settled || this.#answered || this.request.destroyed
  }

  async writeBody(head: Buffer, tail: Buffer): Promise<void> {
    const { file, onProgress } = this.post
    await this.#write(head)
    const outputs = Array.from({ length: BASE64_BUFFERS }, () => ({
      bytes: Buffer.allocUnsafeSlow(base64Length(FILE_CHUNK_BYTES)),
      released: Promise.resolve(),
    }))
    let sent = 0
    let turn = 0
    for await (const chunk of chunksOf(file)) {
      if (this.#stopped) return
      const output = outputs[turn++ % outputs.length]!
      // The socket may still be sending from this buffer.
      await Promise.race([output.released, this.#closed])
      if (this.#stopped) return
      const length = encodeBase64Into(chunk, output.bytes)
      sent += chunk.length
      const sentNow = sent
      let release = () => {}
      output.released = new Promise((resolve) => (release = resolve))
      await this.#write(output.bytes.subarray(0, length), (error) => {
        release()
        if (!error) onProgress?.(sentNow, file.size)
      })
    }
    if (this.#stopped) return
    if ((await file.handle.stat()).size !== file.size) throw fileChanged(file.name)
    await this.#write(tail)
    this.request.end()
  }

  /** Writes, then waits while the socket holds more than it has sent. `onWritten` runs once the OS has `data`. */
  async #write(data: Buffer, onWritten?: (error: Error | null | undefined) => void): Promise<void> {
    if (this.#stopped) return
    if (this.request.write(data, onWritten)) return
    let resume = () => {}
    const drained = new Promise<void>((resolve) => (resume = resolve))
    this.request.once('drain', resume)
    await Promise.race([drained, this.#closed])
    this.request.off('drain', resume)
  }

  #readAnswer(response: IncomingMessage): void {
    this.#answered = true
    const chunks: Buffer[] = []
    let size = 0
    let ended = false
    response.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk)
      else response.destroy()
    })
    response.on('end', () => {
      ended = true
      // An answer that came before the whole body went ends the exchange: the connection cannot be reused.
      if (this.#progress !== 'maybe-sent') this.request.destroy()
      const status = response.statusCode ?? 0
      const url = this.post.url
      const header = (name: string) => {
        const value = response.headers[name.toLowerCase()]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
      }
      let body: string
      try {
        body = answerText(Buffer.concat(chunks), status, url)
      } catch (failure) {
        this.fail(failure)
        return
      }
      const answer: AtomResponse = {
        status,
        url,
        contentType: header('content-type') ?? '',
        location: absoluteLocation(header('location'), url),
        headers: { get: header },
        body,
      }
      if (status >= 200 && status < 300) this.#settle(() => this.resolve(answer))
      else this.fail(answerFailure(answer))
    })
    response.on('close', () => {
      if (ended) return
      const cause = size > MAX_RESPONSE_BYTES ? new Error('answer too large') : new Error('answer cut off')
      this.fail(
        size > MAX_RESPONSE_BYTES
          ? new RequestFailure('refused', `${hostOf(this.post.url)} sent an answer larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; Blogdesk stopped reading it.`, { status: response.statusCode ?? null, cause })
          : transportFailure(cause, this.post.url, 'maybe-sent', this.post.timeoutMs),
      )
    })
  }

  fail(error: unknown): void {
    this.#settle(() => this.reject(error))
    if (!this.request.destroyed) this.request.destroy()
  }

  #settle(outcome: () => void): void {
    if (this.#settled) return
    this.#settled = true
    outcome()
  }
}

/**
 * The file in chunks of FILE_CHUNK_BYTES, patched. The next chunk is read while the caller sends this one, into
 * the other of two buffers: a chunk stays valid until the caller asks for the next one.
 */
async function* chunksOf(file: FileToSend): AsyncGenerator<Buffer> {
  const buffers = [0, 1].map(() => Buffer.allocUnsafe(Math.min(FILE_CHUNK_BYTES, Math.max(file.size, 1))))
  const readAt = async (turn: number, position: number): Promise<Buffer> => {
    const buffer = buffers[turn % 2]!
    const wanted = Math.min(buffer.length, file.size - position)
    let filled = 0
    while (filled < wanted) {
      const { bytesRead } = await file.handle.read(buffer, filled, wanted - filled, position + filled)
      if (bytesRead === 0) throw fileChanged(file.name)
      filled += bytesRead
    }
    return buffer.subarray(0, filled)
  }
  const readAhead = (turn: number, position: number): Promise<Buffer> | null => {
    if (position >= file.size) return null
    const reading = readAt(turn, position)
    // Its failure is met when the chunk is awaited; until then it must not count as unhandled.
    reading.catch(() => undefined)
    return reading
  }
  let position = 0
  let turn = 0
  let pending = readAhead(turn, position)
  try {
    while (pending !== null) {
      const chunk = await pending
      pending = readAhead(++turn, position + chunk.length)
      applyPatches(chunk, position, file.patches)
      position += chunk.length
      yield chunk
    }
  } finally {
    // A read must not outlive the request: the caller closes the file next.
    await pending?.catch(() => undefined)
  }
}

function fileChanged(name: string): CoreError {
  return new CoreError(
    'rejected',
    `The file "${name}" changed while it was being sent, so the server did not get all of it and kept nothing. Send it again once the file is saved.`,
  )
}
