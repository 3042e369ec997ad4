// What an event says, in the feed's words: a sentence of who did what to what ("Ana posted “Spring”"), when it
// happened as a person says it ("5 min ago") and exactly, and the avatar at the size the feed draws it.
import type { ActivityEvent, Person } from '../../../../src-shared/contract'
import { dateFormat } from '../../lib/dateFormat'

export type SentencePart =
  | { kind: 'text'; text: string }
  /** Someone, linked to their profile page. */
  | { kind: 'person'; person: Person }
  /** The thing acted on, linked to its page when it has one. */
  | { kind: 'object'; text: string; href: string | null }

/** Things added to a typed list, by the object's kind. */
const LIST_ITEMS: Readonly<Record<string, string>> = { Song: 'a song', Book: 'a book', Person: 'a person', Link: 'a link' }

export function sentenceOf(event: ActivityEvent): SentencePart[] {
  const actor: SentencePart = { kind: 'person', person: event.actor }
  const text = (words: string): SentencePart => ({ kind: 'text', text: words })
  const { object } = event
  const quoted = (fallback: string): SentencePart => ({ kind: 'object', text: object.title ? `“${object.title}”` : fallback, href: object.permalink })

  switch (event.verb) {
    case 'AddedNeighbor':
      if (object.person) return [actor, text(' added '), { kind: 'person', person: object.person }, text(' as a neighbour')]
      return [actor, text(' added '), quoted('someone'), text(' as a neighbour')]
    case 'AddedFavorite':
      return [actor, text(' favorited '), quoted(`a ${kindInWords(object.kind)}`)]
    case 'NewAsset':
      switch (object.kind) {
        case 'Post':
          return [actor, text(' posted '), quoted('an untitled post')]
        case 'Comment':
          return [actor, text(' commented on '), quoted('a post')]
        case 'Photo':
          return [actor, text(' added a photo, '), quoted('untitled')]
        default: {
          const item = LIST_ITEMS[object.kind]
          if (item) return [actor, text(` added ${item} to a list, `), quoted('untitled')]
          return [actor, text(` added ${kindInWords(object.kind)} `), quoted('')]
        }
      }
    default:
      // A verb Blogdesk has no sentence for yet: its own words, de-camel-cased ("AddedComment" → "added comment").
      return [actor, text(` ${wordsOf(event.verb)} `), quoted(kindInWords(object.kind))]
  }
}

/** The sentence as plain text: for accessible names and tests. */
export function sentenceText(parts: readonly SentencePart[]): string {
  return parts
    .map((part) => (part.kind === 'person' ? nameOf(part.person) : part.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
}

export function nameOf(person: Person): string {
  return person.displayName.trim() || person.username
}

function kindInWords(kind: string): string {
  return kind === 'User' ? 'person' : wordsOf(kind)
}

function wordsOf(camel: string): string {
  return camel.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const dayInYear = dateFormat({ day: 'numeric', month: 'short' })
const dayWithYear = dateFormat({ day: 'numeric', month: 'short', year: 'numeric' })
const exact = dateFormat({ dateStyle: 'full', timeStyle: 'medium' })

/** "just now", "5 min ago", "3 hours ago", "yesterday", "4 days ago", then the day ("12 Mar", "12 Mar 2024"). */
export function relativeTime(iso: string, now: number): string {
  const time = Date.parse(iso)
  const ago = now - time
  // A clock a little ahead of ours still means "just now".
  if (ago < 45_000) return 'just now'
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`
  if (ago < DAY) {
    const hours = Math.round(ago / HOUR)
    return hours === 1 ? '1 hour ago' : `${hours} hours ago`
  }
  const days = Math.round((startOfDay(now) - startOfDay(time)) / DAY)
  if (days <= 1) return 'yesterday'
  if (days < 7) return `${days} days ago`
  return (new Date(time).getFullYear() === new Date(now).getFullYear() ? dayInYear : dayWithYear).format(time)
}

/** "Monday, 12 January 2026 at 14:05:09": shown when the pointer rests on the time. */
export function exactTime(iso: string): string {
  return exact.format(Date.parse(iso))
}

function startOfDay(time: number): number {
  const date = new Date(time)
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
}

/** The avatar drawn `size` pixels square: the server scales it through `{spec}` when it can (TypePad's "50si"). */
export function avatarSource(person: Person, size: number): string {
  return person.avatarTemplate ? person.avatarTemplate.replaceAll('{spec}', `${size}si`) : person.avatarUrl
}
