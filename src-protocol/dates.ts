/** W3C-DTF as every Blogdesk sender writes it: UTC, whole seconds, `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatW3cDate(date: Date): string {
  const time = date.getTime()
  if (Number.isNaN(time)) throw new RangeError('formatW3cDate needs a valid date, but was given an invalid Date.')
  const year = date.getUTCFullYear()
  if (year < 0 || year > 9999) {
    throw new RangeError(`formatW3cDate cannot write the year ${year}: W3C-DTF has four-digit years.`)
  }
  return date.toISOString().slice(0, 19) + 'Z'
}

// Date, then optionally a time (minutes required, seconds and a fraction optional) and a zone: Z, ±hh, ±hhmm or
// ±hh:mm. What real peers send: MT writes offsets, some clients fractions, some no zone at all (read as UTC).
const W3C_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/

/** Reads a W3C-DTF / RFC 3339 timestamp; null for anything else, including impossible dates such as month 13. */
export function parseW3cDate(text: string): Date | null {
  const match = W3C_DATE.exec(text.trim())
  if (!match) return null
  const [, year, month, day, hour, minute, second, fraction, , sign, offsetHours, offsetMinutes] = match
  const parts = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    // A leap second (:60) is read as the first second of the next minute, as POSIX time does.
    second: Number(second ?? 0),
    millisecond: fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
  }
  const offset = { hours: Number(offsetHours ?? 0), minutes: Number(offsetMinutes ?? 0) }
  if (
    parts.month < 1 ||
    parts.month > 12 ||
    parts.day < 1 ||
    parts.day > daysInMonth(parts.year, parts.month) ||
    parts.hour > 23 ||
    parts.minute > 59 ||
    parts.second > 60 ||
    offset.hours > 23 ||
    offset.minutes > 59
  ) {
    return null
  }
  // setUTCFullYear, unlike Date.UTC, does not read the years 0–99 as 1900–1999.
  const date = new Date(0)
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day)
  date.setUTCHours(parts.hour, parts.minute, parts.second, parts.millisecond)
  const offsetMs = (offset.hours * 60 + offset.minutes) * 60_000 * (sign === '-' ? -1 : 1)
  return new Date(date.getTime() - offsetMs)
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}
