/** One measured figure. `ratio` compares it with the baseline named in `target` (e.g. "≤ 4× JSON.parse"). */
export interface BenchRow {
  name: string
  value: number
  unit: string
  ratio?: number
  target?: string
}

const HEADINGS = ['benchmark', 'value', 'unit', 'ratio', 'target'] as const

function formatNumber(value: number): string {
  if (value === 0 || Math.abs(value) >= 100) return value.toFixed(0)
  if (Math.abs(value) >= 10) return value.toFixed(1)
  if (Math.abs(value) >= 0.1) return value.toFixed(2)
  return value.toPrecision(2)
}

/** The rows as an aligned text table: names left-aligned, numbers right-aligned. */
export function formatTable(rows: BenchRow[]): string {
  const cells = rows.map((row) => [
    row.name,
    formatNumber(row.value),
    row.unit,
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.target ?? '',
  ])
  const widths = HEADINGS.map((heading, column) => Math.max(heading.length, ...cells.map((line) => line[column]?.length ?? 0)))
  const numeric = [false, true, false, true, false]
  const line = (values: readonly string[]) =>
    values
      .map((value, column) => (numeric[column] ? value.padStart(widths[column] ?? 0) : value.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd()
  const rule = widths.map((width) => '-'.repeat(width)).join('  ')
  return [line(HEADINGS), rule, ...cells.map(line)].join('\n')
}

export function printTable(rows: BenchRow[]): void {
  console.log(formatTable(rows))
}
