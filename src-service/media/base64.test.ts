import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Base64Decoder, Base64Error } from './base64'

/** Decodes `text` fed in pieces of the given sizes (cycled). */
function decodeInPieces(text: string, sizes: number[]): Buffer {
  const decoder = new Base64Decoder()
  const bytes = Buffer.from(text, 'latin1')
  const out: Buffer[] = []
  for (let at = 0, turn = 0; at < bytes.length; turn++) {
    const size = sizes[turn % sizes.length]!
    decoder.push(bytes.subarray(at, at + size))
    out.push(Buffer.from(decoder.take()))
    at += size
  }
  decoder.end()
  out.push(Buffer.from(decoder.take()))
  return Buffer.concat(out)
}

describe('Base64Decoder', () => {
  it('decodes exactly what Node encodes, however the text is split, for every padding', () => {
    for (const length of [0, 1, 2, 3, 4, 5, 100, 1001, 70_000]) {
      const data = randomBytes(length)
      const text = data.toString('base64')
      for (const sizes of [[1], [3], [7, 1, 2], [4096], [text.length + 1]]) {
        expect(decodeInPieces(text, sizes).equals(data), `length ${length}, pieces ${sizes.join(',')}`).toBe(true)
      }
    }
  })

  it('skips the line breaks and spaces encoders put in', () => {
    const data = randomBytes(300)
    const wrapped = data.toString('base64').replace(/.{76}/g, '$&\r\n').replace(/(.{10})/, '$1 \t')
    expect(decodeInPieces(wrapped, [5]).equals(data)).toBe(true)
  })

  it('refuses a character outside the alphabet, saying which and where', () => {
    expect(() => decodeInPieces('QUJD.REVG', [4])).toThrow(Base64Error)
    expect(() => decodeInPieces('QUJD.REVG', [4])).toThrow(/the character "\." after 4 base64 characters/)
    expect(() => decodeInPieces('QUJD\u00e9', [9])).toThrow(/the byte 0xe9/)
    // Node's own decoder would silently drop these, storing a corrupted file.
    expect(() => decodeInPieces('QUJD-_', [9])).toThrow(/"-"/)
  })

  it('refuses a last group cut short: the text was truncated', () => {
    expect(() => decodeInPieces('QUJDRA', [3])).toThrow(/in the middle of a group of four: it looks truncated/)
    expect(() => decodeInPieces('QUJDR', [3])).toThrow(/truncated/)
    expect(() => decodeInPieces('QUJDRA=', [3])).toThrow(/truncated/)
  })

  it('accepts padding only at the end of the last group', () => {
    expect(decodeInPieces('QQ==', [1]).toString()).toBe('A')
    expect(decodeInPieces('QUI=', [1]).toString()).toBe('AB')
    expect(decodeInPieces('QUI=\n', [2]).toString()).toBe('AB')
    expect(() => decodeInPieces('Q===', [4])).toThrow(/"=" where none belongs/)
    expect(() => decodeInPieces('QUJD====', [4])).toThrow(/"=" where none belongs/)
    expect(() => decodeInPieces('QQ==QUJD', [4])).toThrow(/goes on after its closing "=" padding/)
  })
})
