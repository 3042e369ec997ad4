// When a draft was last saved, as a person reads it in the drafts list and the history panel.
import { dateFormat, startOfDay, timeOfDay } from '../../lib/dateFormat'

const dayFormat = dateFormat({ day: 'numeric', month: 'short' })
const yearFormat = dateFormat({ day: 'numeric', month: 'short', year: 'numeric' })
const exactFormat = dateFormat({ dateStyle: 'full', timeStyle: 'medium' })

/** "14:05" today, "Yesterday 9:12", "3 Mar 14:05", "3 Mar 2025" in an earlier year (times as the locale writes them). */
export function formatSaved(iso: string, now = new Date()): string {
  const date = new Date(iso)
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000)
  if (days === 0) return timeOfDay.format(date)
  if (days === 1) return `Yesterday ${timeOfDay.format(date)}`
  if (date.getFullYear() === now.getFullYear()) return `${dayFormat.format(date)} ${timeOfDay.format(date)}`
  return yearFormat.format(date)
}

/** "Monday, 3 March 2026 at 14:05:09", for a title attribute. */
export function formatExact(iso: string): string {
  return exactFormat.format(new Date(iso))
}
