import { describe, expect, it } from 'vitest'
import { paneAfter } from './panes'

describe('F6 between panes', () => {
  it('cycles forwards with F6 and backwards with Shift+F6', () => {
    expect([0, 1, 2].map((index) => paneAfter(index, 3, 1))).toEqual([1, 2, 0])
    expect([0, 1, 2].map((index) => paneAfter(index, 3, -1))).toEqual([2, 0, 1])
  })

  it('enters at the first pane (or with Shift+F6 the last) when the focus is in none, as on the skip link', () => {
    expect(paneAfter(-1, 3, 1)).toBe(0)
    expect(paneAfter(-1, 3, -1)).toBe(2)
    expect(paneAfter(-1, 0, 1)).toBeNull()
  })
})
