// The service's "now": the system's clock, or one a test sets (a scheduled post appears when its time comes).
import { formatW3cDate } from '../src-protocol'

/** Milliseconds since the epoch, as Date.now. */
export type ServiceClock = () => number

export const systemClock: ServiceClock = Date.now

/** Now as W3CDTF in UTC to the second, as posts and events store their dates. */
export function w3cNow(clock: ServiceClock): string {
  return formatW3cDate(new Date(clock()))
}
