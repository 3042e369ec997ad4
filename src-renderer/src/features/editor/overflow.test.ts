import { describe, expect, it } from 'vitest'
import { fittingCount } from './overflow'

describe('which toolbar entries fit', () => {
  const widths = [100, 30, 30, 30, 30]

  it('shows every entry, and no More button, when all of them fit', () => {
    expect(fittingCount(widths, 220, 30)).toBe(5)
    expect(fittingCount(widths, 500, 30)).toBe(5)
  })

  it('keeps room for the More button once they do not, showing as many from the first as fit beside it', () => {
    expect(fittingCount(widths, 219, 30)).toBe(3)
    expect(fittingCount(widths, 189, 30)).toBe(2)
    expect(fittingCount(widths, 160, 30)).toBe(2)
    expect(fittingCount(widths, 159, 30)).toBe(1)
    expect(fittingCount(widths, 50, 30)).toBe(0)
  })
})
