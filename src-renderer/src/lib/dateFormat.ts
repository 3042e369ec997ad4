/**
 * A date format in the person's own locale, made on first use: making an Intl.DateTimeFormat costs milliseconds (ICU
 * builds its patterns), which a module's top level would add to the window's start whether its screen shows that
 * date or not.
 */
export function dateFormat(options: Intl.DateTimeFormatOptions): { format(date: Date | number): string } {
  let made: Intl.DateTimeFormat | null = null
  return { format: (date) => (made ??= new Intl.DateTimeFormat(undefined, options)).format(date) }
}

/** A time of day as the person's locale writes it: "1:41 PM" in the US, "13:41" in most of Europe. */
export const timeOfDay = dateFormat({ timeStyle: 'short' })

/** Midnight, local time, of the day `date` falls on (ms). */
export function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
}
