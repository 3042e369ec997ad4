// Avatars: initials drawn without fonts, the same picture on every machine, cached once per picture and size.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AvatarCache, avatarSvg, initialsOf } from './avatars'

describe('avatars', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'blogdesk-avatars-'))
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  it('takes the initials of the first and last names, without accents, skipping what has no capital A–Z', () => {
    expect(initialsOf('Melody Nelson')).toBe('MN')
    expect(initialsOf('françoise   de la Tour')).toBe('FT')
    expect(initialsOf('Élodie')).toBe('E')
    expect(initialsOf('Jean-Luc')).toBe('JL')
    expect(initialsOf('李小龙')).toBe('')
  })

  it('draws the same SVG for the same person, in their colour or one picked from their url id', () => {
    const subject = { urlId: '6p0011223344556677', displayName: 'Melody Nelson', color: null }
    expect(avatarSvg(subject)).toBe(avatarSvg({ ...subject }))
    expect(avatarSvg({ ...subject, color: '#123456' })).toContain('fill="#123456"')
    expect(avatarSvg({ ...subject, displayName: '李' })).toContain('<circle')
    expect(avatarSvg(subject)).not.toMatch(/<text|font/)
  })

  it('renders a square PNG of the size asked for, and keeps it on disk for the next request', async () => {
    const cache = AvatarCache.open(dataDir)
    const subject = { urlId: '6p0011223344556677', displayName: 'Ivy Nelson', color: '#2d6f9e' }
    const [first, concurrent] = await Promise.all([cache.png(subject, 75), cache.png(subject, 75)])
    expect(concurrent).toEqual(first)
    const metadata = await sharp(first).metadata()
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 75, 75])
    // White strokes on the colour: the middle row has both.
    const { data, info } = await sharp(first).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const row = Math.floor(info.height / 2) * info.width * 3
    const pixels = Array.from({ length: info.width }, (_, x) => data.subarray(row + x * 3, row + x * 3 + 3).join(','))
    expect(pixels).toContain('255,255,255')
    expect(pixels).toContain('45,111,158')

    expect(readdirSync(join(dataDir, 'avatars')).filter((name) => name.endsWith('.png'))).toHaveLength(1)
    expect(await AvatarCache.open(dataDir).png(subject, 75)).toEqual(first)
    await cache.png({ ...subject, displayName: 'Ivy Other' }, 75)
    expect(readdirSync(join(dataDir, 'avatars')).filter((name) => name.endsWith('.png'))).toHaveLength(2)
  })
})
