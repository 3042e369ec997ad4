import { describe, expect, it } from 'vitest'
import { rovingTarget } from './roving'

describe('roving focus: where a key moves the focus in a toolbar or a menu', () => {
  it('moves on and back with the arrows of its orientation, wrapping around at the ends', () => {
    expect(rovingTarget(0, 4, 'ArrowRight', 'horizontal')).toBe(1)
    expect(rovingTarget(3, 4, 'ArrowRight', 'horizontal')).toBe(0)
    expect(rovingTarget(2, 4, 'ArrowLeft', 'horizontal')).toBe(1)
    expect(rovingTarget(0, 4, 'ArrowLeft', 'horizontal')).toBe(3)
    expect(rovingTarget(1, 4, 'ArrowDown', 'vertical')).toBe(2)
    expect(rovingTarget(0, 4, 'ArrowUp', 'vertical')).toBe(3)
  })

  it('goes to the first and last with Home and End', () => {
    expect(rovingTarget(2, 5, 'Home', 'horizontal')).toBe(0)
    expect(rovingTarget(2, 5, 'End', 'vertical')).toBe(4)
  })

  it('leaves the other orientation’s arrows and every other key alone', () => {
    expect(rovingTarget(1, 4, 'ArrowDown', 'horizontal')).toBeNull()
    expect(rovingTarget(1, 4, 'ArrowRight', 'vertical')).toBeNull()
    expect(rovingTarget(1, 4, 'Tab', 'horizontal')).toBeNull()
    expect(rovingTarget(1, 4, 'a', 'horizontal')).toBeNull()
  })

  it('starts from the ends when none of the controls has the focus, and does nothing in an empty group', () => {
    expect(rovingTarget(-1, 4, 'ArrowRight', 'horizontal')).toBe(0)
    expect(rovingTarget(-1, 4, 'ArrowLeft', 'horizontal')).toBe(3)
    expect(rovingTarget(0, 0, 'ArrowRight', 'horizontal')).toBeNull()
  })

  it('stays on a lone control', () => {
    expect(rovingTarget(0, 1, 'ArrowRight', 'horizontal')).toBe(0)
    expect(rovingTarget(0, 1, 'ArrowLeft', 'horizontal')).toBe(0)
  })
})
