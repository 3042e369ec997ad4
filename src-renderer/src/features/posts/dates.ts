// Dates as a person reads them in the posts list and the offline notices, in their own locale.
import { dateFormat, startOfDay, timeOfDay } from '../../lib/dateFormat'

const dayFormat = dateFormat({ day: 'numeric', month: 'short', year: 'numeric' })
const exactFormat = dateFormat({ dateStyle: 'full', timeStyle: 'short' })

/** "12 Jan 2026" */
export function formatDay(iso: string): string {
  return dayFormat.format(new Date(iso))
}

/** "Monday, 12 January 2026 at 14:05", for a title attribute. */
export function formatExact(iso: string): string {
  return exactFormat.format(new Date(iso))
}

/** "today at 14:05", "yesterday at 9:12", "on 3 Mar 2026 at 14:05": when something was last read. */
export function formatWhen(iso: string, now = new Date()): string {
  const date = new Date(iso)
  const time = timeOfDay.format(date)
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000)
  if (days === 0) return `today at ${time}`
  if (days === 1) return `yesterday at ${time}`
  return `on ${dayFormat.format(date)} at ${time}`
}

/**
 * Makes the posts list's date formats and formats once with each, while the window waits for its first answers:
 * ICU builds the first formats of a page, and formats with them at first, in tens of milliseconds, which the list's
 * first draw would add to the window's start.
 */
export function prepareListDates(): void {
  const now = new Date().toISOString()
  formatDay(now)
  formatExact(now)
}
