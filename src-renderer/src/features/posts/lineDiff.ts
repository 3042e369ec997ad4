// What changed between two versions of a post's text: by whole lines for the conflict view, by words for the
// History. jsdiff's shortest edit script, bounded. Pure, so it is tested without a page.
import { diffArrays, diffWords } from 'diff'

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string }

/**
 * The most added plus removed lines for which the fewest changes are searched for. jsdiff's search grows with the
 * square of this count, whatever the texts' length: unbounded, two 5,000-line texts with no line in common took 11 s;
 * bounded at 500, 0.1–0.2 s. Past it the differing middle is shown replaced as a whole: still true, only not minimal.
 */
const MAX_EXACT_CHANGES = 500

/** `before` turned into `after`, line by line: each change's removed lines before its added ones. */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  const changes = diffArrays(before, after, { maxEditLength: MAX_EXACT_CHANGES })
  if (changes === undefined) return middleReplaced(before, after)
  return changes.flatMap((change) =>
    change.value.map((text): DiffLine => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text })),
  )
}

/**
 * `before` turned into `after`, word by word, runs of the same kind joined: what the History marks as inserted and
 * removed. Bounded as lines are; past the bound, the differing middle (by words) is shown replaced.
 */
export function diffWordsOf(before: string, after: string): DiffLine[] {
  const changes = diffWords(before, after, { maxEditLength: MAX_EXACT_CHANGES })
  const parts =
    changes === undefined
      ? middleReplaced(before.split(/(?<=\s)/u), after.split(/(?<=\s)/u))
      : changes.map((change): DiffLine => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text: change.value }))
  return parts.reduce<DiffLine[]>((joined, part) => {
    const last = joined.at(-1)
    if (last?.kind === part.kind) last.text += part.text
    else if (part.text !== '') joined.push({ ...part })
    return joined
  }, [])
}

/** The shared first and last items (lines or words) kept, everything between them removed and added. */
function middleReplaced(before: string[], after: string[]): DiffLine[] {
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let endBefore = before.length
  let endAfter = after.length
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--
    endAfter--
  }
  const lines = (kind: DiffLine['kind'], texts: string[]) => texts.map((text): DiffLine => ({ kind, text }))
  return [
    ...lines('same', before.slice(0, start)),
    ...lines('removed', before.slice(start, endBefore)),
    ...lines('added', after.slice(start, endAfter)),
    ...lines('same', before.slice(endBefore)),
  ]
}
