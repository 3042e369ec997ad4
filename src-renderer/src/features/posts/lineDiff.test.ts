import { describe, expect, it } from 'vitest'
import { diffLines } from './lineDiff'

describe('diffLines', () => {
  it('marks the lines one version dropped and the other added, keeping the rest in order', () => {
    expect(diffLines(['Tram 28', 'Up the hill', 'Custard tarts', 'Home'], ['Tram 28', 'Up the steep hill', 'Custard tarts', 'Fado', 'Home'])).toEqual([
      { kind: 'same', text: 'Tram 28' },
      { kind: 'removed', text: 'Up the hill' },
      { kind: 'added', text: 'Up the steep hill' },
      { kind: 'same', text: 'Custard tarts' },
      { kind: 'added', text: 'Fado' },
      { kind: 'same', text: 'Home' },
    ])
  })

  it('finds the longest run of shared lines when the change is in the middle of repeats', () => {
    const lines = diffLines(['a', 'b', 'a', 'b'], ['b', 'a', 'b', 'a'])!
    expect(lines.filter((line) => line.kind === 'same')).toHaveLength(3)
    expect(lines.filter((line) => line.kind !== 'added').map((line) => line.text)).toEqual(['a', 'b', 'a', 'b'])
    expect(lines.filter((line) => line.kind !== 'removed').map((line) => line.text)).toEqual(['b', 'a', 'b', 'a'])
  })

  it('handles an empty side and identical texts', () => {
    expect(diffLines([], ['New'])).toEqual([{ kind: 'added', text: 'New' }])
    expect(diffLines(['Old'], [])).toEqual([{ kind: 'removed', text: 'Old' }])
    expect(diffLines(['Same'], ['Same'])).toEqual([{ kind: 'same', text: 'Same' }])
  })

  it('declines texts too long and too different to compare line by line', () => {
    const before = Array.from({ length: 3000 }, (_, index) => `before ${index}`)
    const after = Array.from({ length: 3000 }, (_, index) => `after ${index}`)
    expect(diffLines(before, after)).toBeNull()
    expect(diffLines([...before, 'end'], [...before, 'changed end'])?.slice(-2)).toEqual([
      { kind: 'removed', text: 'end' },
      { kind: 'added', text: 'changed end' },
    ])
  })
})
