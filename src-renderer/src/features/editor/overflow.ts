/**
 * How many of a bar's entries fit in `available` pixels, from the first: all of them if they fit, otherwise as many as
 * fit beside the More button (`moreWidth`) that holds the rest.
 */
export function fittingCount(widths: readonly number[], available: number, moreWidth: number): number {
  const total = widths.reduce((sum, width) => sum + width, 0)
  if (total <= available) return widths.length
  let used = moreWidth
  let count = 0
  for (const width of widths) {
    if (used + width > available) break
    used += width
    count++
  }
  return count
}
