// The photo entry scanner reads bytes, so it takes the encodings whose markup is ASCII bytes (UTF-8, ISO-8859-1)
// and refuses the others by name; its skeleton is decoded as the entry declares, invalid bytes refused.
import { describe, expect, it } from 'vitest'
import { readEntry, XmlError } from '../../src-protocol'
import { EntryScanner } from './entry-scanner'

const entry = (declaration: string) =>
  `${declaration}<entry xmlns="http://purl.org/atom/ns#"><title>Tram à Graça</title><content mode="base64" type="image/gif">QUJD</content></entry>`

function skeletonOf(bytes: Buffer): string {
  const scanner = new EntryScanner({ maxSkeletonBytes: 1024 * 1024, onContentText: () => {} })
  scanner.push(bytes)
  return scanner.finish()
}

describe('the photo entry scanner and encodings', () => {
  it('reads an ISO-8859-1 entry as it declares', () => {
    const latin1 = Buffer.from(entry('<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1')
    expect(readEntry(skeletonOf(latin1)).title).toBe('Tram à Graça')
  })

  it('refuses a UTF-16 entry, naming the encoding', () => {
    const utf16 = Buffer.from(`\uFEFF${entry('<?xml version="1.0" encoding="UTF-16"?>')}`, 'utf16le')
    expect(() => skeletonOf(utf16)).toThrow(XmlError)
    expect(() => skeletonOf(utf16)).toThrow(/UTF-16LE/)
  })

  it('refuses bytes that are not the UTF-8 the entry declares', () => {
    const broken = Buffer.from(entry('<?xml version="1.0" encoding="utf-8"?>'), 'latin1')
    expect(() => skeletonOf(broken)).toThrow(/not valid UTF-8/)
  })
})
