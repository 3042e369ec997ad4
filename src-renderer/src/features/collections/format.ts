// Photo and list details as a person reads them, in their own locale.
import { dateFormat } from '../../lib/dateFormat'

const takenFormat = dateFormat({ dateStyle: 'medium', timeStyle: 'short' })
const dayFormat = dateFormat({ dateStyle: 'medium' })

/**
 * "14 Jul 2024, 20:41". A camera's time without a zone is its wall clock: read as local time, it shows as the
 * camera showed it.
 */
export function formatTaken(takenAt: string): string {
  const date = new Date(takenAt)
  return Number.isNaN(date.getTime()) ? takenAt : takenFormat.format(date)
}

/** "14 Jul 2024" */
export function formatDay(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dayFormat.format(date)
}

/** "38.7056° N, 9.1450° W" */
export function formatPosition({ latitude, longitude }: { latitude: number; longitude: number }): string {
  const part = (value: number, positive: string, negative: string) => `${Math.abs(value).toFixed(4)}° ${value < 0 ? negative : positive}`
  return `${part(latitude, 'N', 'S')}, ${part(longitude, 'E', 'W')}`
}

/** "23 KB", "4.2 MB" */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** "45%" of what was sent. */
export function formatShare(sent: number, total: number): string {
  return `${total === 0 ? 100 : Math.min(100, Math.floor((sent / total) * 100))}%`
}
