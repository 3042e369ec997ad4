// Which lines of a post's text changed between two versions: a longest-common-subsequence diff of whole lines, for
// the conflict view. Pure, so it is tested without a page.

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string }

/** Past this many line pairs (after the shared start and end are set aside) a comparison is not worth the wait. */
const MAX_COMPARED_PAIRS = 4_000_000

/** `before` turned into `after`, line by line; null when the texts are too long and different to compare. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] | null {
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let endBefore = before.length
  let endAfter = after.length
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--
    endAfter--
  }
  const removed = before.slice(start, endBefore)
  const added = after.slice(start, endAfter)
  if (removed.length * added.length > MAX_COMPARED_PAIRS) return null

  const same = (text: string): DiffLine => ({ kind: 'same', text })
  return [...before.slice(0, start).map(same), ...middle(removed, added), ...before.slice(endBefore).map(same)]
}

/** The LCS table, filled from the end, then walked from the start: removals before additions at each change. */
function middle(removed: readonly string[], added: readonly string[]): DiffLine[] {
  const columns = added.length + 1
  const common = new Uint32Array((removed.length + 1) * columns)
  for (let i = removed.length - 1; i >= 0; i--) {
    for (let j = added.length - 1; j >= 0; j--) {
      common[i * columns + j] =
        removed[i] === added[j] ? common[(i + 1) * columns + j + 1]! + 1 : Math.max(common[(i + 1) * columns + j]!, common[i * columns + j + 1]!)
    }
  }
  const lines: DiffLine[] = []
  let i = 0
  let j = 0
  while (i < removed.length || j < added.length) {
    if (i < removed.length && j < added.length && removed[i] === added[j]) {
      lines.push({ kind: 'same', text: removed[i]! })
      i++
      j++
    } else if (j >= added.length || (i < removed.length && common[(i + 1) * columns + j]! >= common[i * columns + j + 1]!)) {
      lines.push({ kind: 'removed', text: removed[i]! })
      i++
    } else {
      lines.push({ kind: 'added', text: added[j]! })
      j++
    }
  }
  return lines
}
