import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HttpError } from '../routes/reply'
import { MediaLibrary } from './library'
import { receiveEntryWithFile, type ReceiveLimits } from './receive-entry'

describe('receiveEntryWithFile', () => {
  let dataDir: string
  let library: MediaLibrary
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-receive-'))
    library = MediaLibrary.open(dataDir, dataDir)
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  const incomingFiles = () => readdirSync(library.incoming)
  const body = (xml: string, pieceSize = 1000) => {
    const bytes = Buffer.from(xml)
    const pieces: Buffer[] = []
    for (let at = 0; at < bytes.length; at += pieceSize) pieces.push(bytes.subarray(at, at + pieceSize))
    return Readable.from(pieces)
  }
  const entryWith = (base64: string, extra = '') =>
    `<entry xmlns="http://purl.org/atom/ns#"><title>f.bin</title>${extra}<content mode="base64" type="application/octet-stream">${base64}</content></entry>`

  it('decodes the content into a file as it arrives, hashing it, and parses the rest as an entry', async () => {
    const data = randomBytes(200_000)
    const received = await receiveEntryWithFile(body(entryWith(data.toString('base64').replace(/.{76}/g, '$&\n')), 777), library, {
      maxFileBytes: 1_000_000,
    })
    expect(received.entry.title).toBe('f.bin')
    expect(received.entry.content).toMatchObject({ mode: 'base64', type: 'application/octet-stream', value: '' })
    const file = received.file!
    expect(readFileSync(file.path).equals(data)).toBe(true)
    expect(file).toMatchObject({ size: data.length, sha256: createHash('sha256').update(data).digest('hex') })
    expect(file.head.equals(data.subarray(0, 64))).toBe(true)
    await file.discard()
    expect(incomingFiles()).toEqual([])
  })

  it('gives no file for an entry without content', async () => {
    const received = await receiveEntryWithFile(body('<entry xmlns="http://purl.org/atom/ns#"><title>t</title></entry>'), library, {
      maxFileBytes: 10,
    })
    expect(received.file).toBeNull()
    expect(incomingFiles()).toEqual([])
  })

  const refusal = async (xml: string, limits: ReceiveLimits = { maxFileBytes: 1_000_000 }) => {
    const error = await receiveEntryWithFile(body(xml, 5), library, limits).then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect(incomingFiles()).toEqual([]) // nothing left behind
    return error as HttpError
  }

  it('refuses, leaving no file: bad base64, truncation, malformed XML, wrong namespaces, too much', async () => {
    expect(await refusal(entryWith('QUJD*'))).toMatchObject({ status: 400, message: expect.stringMatching(/not valid base64/) })
    expect(await refusal(entryWith('QUJDRA'))).toMatchObject({ status: 400, message: expect.stringMatching(/truncated/) })
    expect(await refusal(entryWith('QUJD').slice(0, -20))).toMatchObject({ status: 400, message: expect.stringMatching(/ends inside <content>/) })
    expect(await refusal(entryWith('QUJD').replace('</entry>', ''))).toMatchObject({ status: 400 })
    expect(await refusal('<!DOCTYPE entry><entry xmlns="http://purl.org/atom/ns#"/>')).toMatchObject({ status: 400, message: expect.stringMatching(/DOCTYPE/) })
    expect(await refusal('<feed xmlns="http://purl.org/atom/ns#"><content>QUJD</content></feed>')).toMatchObject({ status: 400, message: expect.stringMatching(/Expected an Atom entry/) })
    expect(await refusal('<entry xmlns="http://purl.org/atom/ns#"><x:content xmlns:x="urn:other">QUJD</x:content></entry>')).toMatchObject({
      status: 400,
      message: expect.stringMatching(/not in the Atom namespace/),
    })
    expect(await refusal(entryWith(randomBytes(3000).toString('base64')), { maxFileBytes: 2000 })).toMatchObject({
      status: 413,
      headers: { Connection: 'close' },
    })
    expect(await refusal(entryWith('QUJD', `<summary>${'x'.repeat(3000)}</summary>`), { maxFileBytes: 10, maxEntryBytes: 2000 })).toMatchObject({
      status: 413,
    })
  })

  it('refuses a request cut off mid-body', async () => {
    const cutOff = new Readable({
      read() {
        this.push(Buffer.from('<entry xmlns="http://purl.org/atom/ns#"><content mode="base64">QUJD'))
        this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      },
    })
    const error = await receiveEntryWithFile(cutOff, library, { maxFileBytes: 100 }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/cut off/) })
    expect(incomingFiles()).toEqual([])
  })
})
