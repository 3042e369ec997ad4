import { describe, expect, it } from 'vitest'
import { diffLines, diffWordsOf } from './lineDiff'

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
    const lines = diffLines(['a', 'b', 'a', 'b'], ['b', 'a', 'b', 'a'])
    expect(lines.filter((line) => line.kind === 'same')).toHaveLength(3)
    expect(lines.filter((line) => line.kind !== 'added').map((line) => line.text)).toEqual(['a', 'b', 'a', 'b'])
    expect(lines.filter((line) => line.kind !== 'removed').map((line) => line.text)).toEqual(['b', 'a', 'b', 'a'])
  })

  it('handles an empty side and identical texts', () => {
    expect(diffLines([], ['New'])).toEqual([{ kind: 'added', text: 'New' }])
    expect(diffLines(['Old'], [])).toEqual([{ kind: 'removed', text: 'Old' }])
    expect(diffLines(['Same'], ['Same'])).toEqual([{ kind: 'same', text: 'Same' }])
  })

  it('shows texts too different to compare line by line with the shared start and end kept and the middle replaced', () => {
    const before = Array.from({ length: 3000 }, (_, index) => `before ${index}`)
    const after = Array.from({ length: 3000 }, (_, index) => `after ${index}`)
    const lines = diffLines(['Title', ...before, 'Home'], ['Title', ...after, 'Home'])
    expect(lines.map((line) => line.kind)).toEqual(['same', ...before.map(() => 'removed'), ...after.map(() => 'added'), 'same'])
    expect(lines.filter((line) => line.kind !== 'added').map((line) => line.text)).toEqual(['Title', ...before, 'Home'])
    expect(lines.filter((line) => line.kind !== 'removed').map((line) => line.text)).toEqual(['Title', ...after, 'Home'])
    expect(diffLines([...before, 'end'], [...before, 'changed end']).slice(-2)).toEqual([
      { kind: 'removed', text: 'end' },
      { kind: 'added', text: 'changed end' },
    ])
  })

  it('compares 20,000 lines with every change found, in time that grows with the length, not its square', () => {
    const version = (length: number, edited: string) =>
      Array.from({ length }, (_, index) => (index % (length / 20) === 7 ? `line ${index} ${edited}` : `line ${index}`))
    const lines = diffLines(version(20_000, 'as the server has it'), version(20_000, 'as written here'))
    expect(lines.filter((line) => line.kind === 'removed').map((line) => line.text)).toContain('line 7 as the server has it')
    expect(lines.filter((line) => line.kind === 'removed')).toHaveLength(20)
    expect(lines.filter((line) => line.kind === 'added')).toHaveLength(20)
    expect(lines).toHaveLength(20_020)

    // Each size is compared as often as it takes to cover 20,000 lines: linear time makes the three equal, the square
    // would make each twice the one before.
    const [single, , quadruple] = [5_000, 10_000, 20_000].map((length) => {
      const before = version(length, 'as the server has it')
      const after = version(length, 'as written here')
      return fastestOf(5, () => {
        for (let compared = 0; compared < 20_000; compared += length) diffLines(before, after)
      })
    })
    expect(quadruple! / single!).toBeLessThan(2.5)
  })

  it('gives 20,000 lines that share none a diff, in time that does not grow with the square of the length', () => {
    const versions = (length: number) => [
      Array.from({ length }, (_, index) => `before ${index}`),
      Array.from({ length }, (_, index) => `after ${index}`),
    ]
    const [before, after] = versions(20_000)
    expect(diffLines(before!, after!)).toHaveLength(40_000)
    const [single, quadruple] = [5_000, 20_000].map((length) => {
      const [before, after] = versions(length)
      return fastestOf(2, () => diffLines(before!, after!))
    })
    // The square would be 16x.
    expect(quadruple! / single!).toBeLessThan(6)
  })
})

function fastestOf(runs: number, work: () => void): number {
  let fastest = Infinity
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    work()
    fastest = Math.min(fastest, performance.now() - started)
  }
  return fastest
}

describe('diffWordsOf', () => {
  it('marks the words inserted and removed, joining runs of a kind', () => {
    expect(diffWordsOf('Leaving Lisbon at ten.', 'Leaving Lisbon at eleven, late.')).toEqual([
      { kind: 'same', text: 'Leaving Lisbon at ' },
      { kind: 'removed', text: 'ten' },
      { kind: 'added', text: 'eleven, late' },
      { kind: 'same', text: '.' },
    ])
  })

  it('past its bound, keeps the shared ends and shows the middle replaced, still true to both texts', () => {
    const words = (prefix: string) => Array.from({ length: 600 }, (_, index) => `${prefix}${index}`).join(' ')
    const before = `Start ${words('a')} end.`
    const after = `Start ${words('b')} end.`
    const parts = diffWordsOf(before, after)
    expect(parts.filter((part) => part.kind !== 'added').map((part) => part.text).join('')).toBe(before)
    expect(parts.filter((part) => part.kind !== 'removed').map((part) => part.text).join('')).toBe(after)
    expect(parts[0]).toEqual({ kind: 'same', text: 'Start ' })
  })
})
