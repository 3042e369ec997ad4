// Base64 written straight into a buffer that is used again and again: a 50 MB photo streamed as base64 then makes no
// garbage (Buffer#toString('base64') would make a 256 KiB string per chunk, and the collector's pauses with it).

const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1')
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** Every 12-bit value as its two base64 characters, laid out as one 16-bit unit in this machine's byte order. */
const PAIRS = new Uint16Array(4096)
for (let value = 0; value < PAIRS.length; value++) {
  const first = ALPHABET[value >> 6]!
  const second = ALPHABET[value & 63]!
  PAIRS[value] = LITTLE_ENDIAN ? first | (second << 8) : (first << 8) | second
}

export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3)
}

/**
 * Writes the base64 of `input` at the start of `output` (which must hold base64Length(input.length) bytes and start
 * at an even offset of its memory); returns the number of bytes written. Padding only at the end of `input`, so
 * inputs of a multiple of 3 bytes can be encoded one after another as one text.
 */
export function encodeBase64Into(input: Uint8Array, output: Buffer): number {
  const pairs = new Uint16Array(output.buffer, output.byteOffset, output.length >> 1)
  const whole = input.length - (input.length % 3)
  let pair = 0
  for (let index = 0; index < whole; index += 3) {
    const group = (input[index]! << 16) | (input[index + 1]! << 8) | input[index + 2]!
    pairs[pair++] = PAIRS[group >>> 12]!
    pairs[pair++] = PAIRS[group & 0xfff]!
  }
  let written = pair * 2
  if (whole < input.length) written += output.write(Buffer.from(input.subarray(whole)).toString('base64'), written, 'latin1')
  return written
}
