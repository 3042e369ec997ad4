import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { base64Length, encodeBase64Into } from './base64'

describe('encodeBase64Into', () => {
  it.each([0, 1, 2, 3, 4, 5, 6, 191, 192 * 1024, 192 * 1024 + 1])('writes what Buffer writes, for %i bytes', (size) => {
    const input = randomBytes(size)
    const output = Buffer.alloc(base64Length(size))
    expect(output.subarray(0, encodeBase64Into(input, output)).toString('latin1')).toBe(input.toString('base64'))
  })

  it('encodes chunks of a multiple of 3 bytes one after another as one text', () => {
    const input = randomBytes(3 * 1000 + 2)
    const output = Buffer.alloc(base64Length(input.length))
    let written = 0
    for (let start = 0; start < input.length; start += 300) written += encodeBase64Into(input.subarray(start, start + 300), output.subarray(written))
    expect(output.toString('latin1', 0, written)).toBe(input.toString('base64'))
  })
})
