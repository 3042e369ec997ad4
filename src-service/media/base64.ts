// Base64 decoded as it arrives, in pieces of any size: whitespace (line breaks every 76 characters, as most
// encoders write) is skipped, anything outside the alphabet is refused rather than silently dropped (Node's own
// decoder drops it, which would store a corrupted file), and an incomplete last group is reported as truncation.
// Decoding goes into one reused buffer, so a file of any size is decoded without a garbage buffer per piece.

/** Why a piece of base64 text cannot be decoded; the message is for the person who sent it. */
export class Base64Error extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'Base64Error'
  }
}

const WHITESPACE = -2
const PAD = -3
const INVALID = -1
const VALUES = new Int8Array(256).fill(INVALID)
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  .split('')
  .forEach((character, value) => (VALUES[character.charCodeAt(0)] = value))
for (const character of ' \t\r\n') VALUES[character.charCodeAt(0)] = WHITESPACE
VALUES['='.charCodeAt(0)] = PAD

export class Base64Decoder {
  #output = Buffer.allocUnsafe(64 * 1024)
  #outputLength = 0
  /** The bits of the group being read, six per character. */
  #bits = 0
  /** Characters of the current group read so far (0–3). */
  #inGroup = 0
  /** Characters of the alphabet seen so far, to say where a problem is. */
  #position = 0
  /** '=' seen so far; after them only whitespace may follow. */
  #padding = 0

  /** Decodes `text` (ASCII bytes) following what came before, adding its bytes to those `take` returns. */
  push(text: Uint8Array): void {
    this.#reserve(Math.ceil((text.length * 3) / 4) + 3)
    const output = this.#output
    let length = this.#outputLength
    let bits = this.#bits
    let inGroup = this.#inGroup
    let position = this.#position
    try {
      for (let index = 0; index < text.length; index++) {
        const value = VALUES[text[index]!]!
        if (value >= 0) {
          if (this.#padding > 0) {
            throw new Base64Error(
              `The base64 content goes on after its closing "=" padding (at character ${position + 1}). ` +
                'Send one base64 text per content element.',
            )
          }
          bits = (bits << 6) | value
          position++
          if (++inGroup === 4) {
            output[length++] = bits >>> 16
            output[length++] = (bits >>> 8) & 0xff
            output[length++] = bits & 0xff
            bits = 0
            inGroup = 0
          }
        } else if (value === PAD) {
          this.#acceptPadding(inGroup, position)
        } else if (value === INVALID) {
          throw new Base64Error(
            `The content is not valid base64: it holds ${describeByte(text[index]!)} after ${position} base64 ` +
              'characters. Encode the file as base64 (A–Z, a–z, 0–9, +, /, with = padding).',
          )
        }
      }
    } finally {
      this.#outputLength = length
      this.#bits = bits
      this.#inGroup = inGroup
      this.#position = position
    }
  }

  /**
   * The bytes decoded since the last call. The buffer is reused by the next push: use it (write it out) first.
   */
  take(): Buffer {
    const taken = this.#output.subarray(0, this.#outputLength)
    this.#outputLength = 0
    return taken
  }

  /** Checks the text ended on a whole group, decoding the bytes a padded last group holds (see take). */
  end(): void {
    const complete =
      (this.#inGroup === 0 && this.#padding === 0) ||
      (this.#inGroup === 2 && this.#padding === 2) ||
      (this.#inGroup === 3 && this.#padding === 1)
    if (!complete) {
      throw new Base64Error(
        `The base64 content stops after ${this.#position} characters, in the middle of a group of four: it looks ` +
          'truncated. Send the whole file, with its "=" padding.',
      )
    }
    this.#reserve(2)
    if (this.#inGroup === 2) {
      this.#output[this.#outputLength++] = this.#bits >>> 4
    } else if (this.#inGroup === 3) {
      this.#output[this.#outputLength++] = this.#bits >>> 10
      this.#output[this.#outputLength++] = (this.#bits >>> 2) & 0xff
    }
    this.#inGroup = 0
    this.#bits = 0
  }

  #reserve(bytes: number): void {
    if (this.#outputLength + bytes <= this.#output.length) return
    const larger = Buffer.allocUnsafe(Math.max(this.#output.length * 2, this.#outputLength + bytes))
    this.#output.copy(larger, 0, 0, this.#outputLength)
    this.#output = larger
  }

  #acceptPadding(inGroup: number, position: number): void {
    // '=' fills the third and fourth place of the last group (one byte left over) or the fourth only (two bytes).
    const allowed = this.#padding === 0 ? inGroup === 2 || inGroup === 3 : inGroup === 2 && this.#padding === 1
    if (!allowed) {
      throw new Base64Error(
        `The base64 content has an "=" where none belongs (after ${position} characters). ` +
          '"=" may only pad the last group of four.',
      )
    }
    this.#padding++
  }
}

function describeByte(byte: number): string {
  if (byte >= 0x21 && byte <= 0x7e) return `the character "${String.fromCharCode(byte)}"`
  return `the byte 0x${byte.toString(16).padStart(2, '0')}`
}
