import { describe, expect, test } from 'vitest'
import { formatW3cDate, parseW3cDate } from './index'

describe('formatW3cDate', () => {
  test('writes UTC with whole seconds and a Z', () => {
    expect(formatW3cDate(new Date(Date.UTC(2004, 0, 20, 1, 9, 39, 987)))).toBe('2004-01-20T01:09:39Z')
    expect(formatW3cDate(new Date('2026-11-22T19:06:48+09:00'))).toBe('2026-11-22T10:06:48Z')
  })

  test('refuses an invalid date and years W3C-DTF cannot write', () => {
    expect(() => formatW3cDate(new Date('garbage'))).toThrow(RangeError)
    expect(() => formatW3cDate(new Date(Date.UTC(10000, 0, 1)))).toThrow(/year 10000/)
  })
})

describe('parseW3cDate', () => {
  test.each([
    ['2004-01-20T01:09:39Z', '2004-01-20T01:09:39.000Z'],
    ['2004-01-20t01:09:39z', '2004-01-20T01:09:39.000Z'],
    ['2026-11-22T19:06:48+09:00', '2026-11-22T10:06:48.000Z'],
    ['2003-07-21T02:47:34-07:00', '2003-07-21T09:47:34.000Z'],
    ['2026-11-22T19:06:48+0900', '2026-11-22T10:06:48.000Z'],
    ['2026-11-22T05:36:48-0330', '2026-11-22T09:06:48.000Z'],
    ['2026-11-22T10:06:48+09', '2026-11-22T01:06:48.000Z'],
    ['2026-11-22T10:06:48.5Z', '2026-11-22T10:06:48.500Z'],
    ['2026-11-22T10:06:48.123456789+01:00', '2026-11-22T09:06:48.123Z'],
    ['2026-11-22T10:06:48,25Z', '2026-11-22T10:06:48.250Z'],
    ['2026-11-22T10:06:48', '2026-11-22T10:06:48.000Z'],
    ['2026-11-22T10:06Z', '2026-11-22T10:06:00.000Z'],
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['  2026-11-22T10:06:48Z\n', '2026-11-22T10:06:48.000Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
    ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
  ])('reads %j', (text, iso) => {
    expect(parseW3cDate(text)?.toISOString()).toBe(iso)
  })

  test('reads the years 0–99 as themselves, not as 1900–1999', () => {
    expect(parseW3cDate('0050-06-01T00:00:00Z')?.getUTCFullYear()).toBe(50)
  })

  test.each([
    '',
    'garbage',
    'yesterday',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T10:60:00Z',
    '2026-11-22T10:06:61Z',
    '2026-11-22T10:06:48+24:00',
    '2026-11-22T10:06:48+05:60',
    '20261122T100706Z',
    '2026-11-22T10:06:48 Z',
    '2026-11-22T10:06:48.Z',
    '26-11-22T10:06:48Z',
    'Sun, 22 Nov 2026 10:06:40 GMT',
    '2026-11-22T10:06:48Zjunk',
  ])('returns null for %j', (text) => {
    expect(parseW3cDate(text)).toBeNull()
  })

  test('reads what it writes', () => {
    const date = new Date(Date.UTC(1999, 11, 31, 23, 59, 59))
    expect(parseW3cDate(formatW3cDate(date))?.getTime()).toBe(date.getTime())
  })
})
