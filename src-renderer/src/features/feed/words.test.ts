// What the feed says of an event, when, and with which avatar.
import { describe, expect, it } from 'vitest'
import type { ActivityEvent, Person } from '../../../../src-shared/contract'
import { avatarSource, relativeTime, sentenceOf, sentenceText } from './words'

const ana: Person = {
  urlId: '6pana',
  username: 'ana',
  displayName: 'Ana',
  avatarUrl: 'http://127.0.0.1:4000/avatars/6pana/50si.png',
  avatarTemplate: 'http://127.0.0.1:4000/avatars/6pana/{spec}.png',
  profilePageUrl: 'http://127.0.0.1:4000/people/ana',
}
const bo: Person = { ...ana, urlId: '6pbo', username: 'bo', displayName: 'Bo', avatarTemplate: null }

function event(verb: string, object: Partial<ActivityEvent['object']>): ActivityEvent {
  return {
    urlId: '6e1',
    verb,
    published: '2026-03-02T10:00:00Z',
    actor: ana,
    object: { kind: 'Post', title: null, excerpt: null, html: null, permalink: 'http://127.0.0.1:4000/p/1', person: null, imageUrl: null, ...object },
  }
}

describe('the feed’s words', () => {
  it('says who did what to what', () => {
    const said = (verb: string, object: Partial<ActivityEvent['object']>) => sentenceText(sentenceOf(event(verb, object)))
    expect(said('NewAsset', { title: 'Spring' })).toBe('Ana posted “Spring”')
    expect(said('NewAsset', {})).toBe('Ana posted an untitled post')
    expect(said('AddedFavorite', { title: 'Spring' })).toBe('Ana favorited “Spring”')
    expect(said('NewAsset', { kind: 'Comment', title: 'Spring' })).toBe('Ana commented on “Spring”')
    expect(said('NewAsset', { kind: 'Photo', title: 'Dusk' })).toBe('Ana added a photo, “Dusk”')
    expect(said('NewAsset', { kind: 'Book', title: 'Dune' })).toBe('Ana added a book to a list, “Dune”')
    expect(said('AddedNeighbor', { kind: 'User', title: 'Bo', person: bo })).toBe('Ana added Bo as a neighbour')
    expect(said('SharedAsset', { title: 'Spring' })).toBe('Ana shared asset “Spring”')
  })

  it('links the people to their profiles and the object to its page', () => {
    const parts = sentenceOf(event('AddedNeighbor', { kind: 'User', person: bo }))
    expect(parts.filter((part) => part.kind === 'person').map((part) => part.person.username)).toEqual(['ana', 'bo'])
    expect(sentenceOf(event('NewAsset', { title: 'Spring' })).at(-1)).toEqual({ kind: 'object', text: '“Spring”', href: 'http://127.0.0.1:4000/p/1' })
  })

  it('says when as a person would, from just now to the day', () => {
    const now = Date.parse('2026-03-02T10:00:00Z')
    const ago = (ms: number) => relativeTime(new Date(now - ms).toISOString(), now)
    expect(ago(10_000)).toBe('just now')
    expect(ago(-20_000)).toBe('just now')
    expect(ago(5 * 60_000)).toBe('5 min ago')
    expect(ago(60 * 60_000)).toBe('1 hour ago')
    expect(ago(3 * 60 * 60_000)).toBe('3 hours ago')
    expect(ago(4 * 24 * 60 * 60_000)).toBe('4 days ago')
    expect(ago(40 * 24 * 60 * 60_000)).toMatch(/2026|Jan|21/)
  })

  it('asks the server for the avatar at the size drawn, through its template when it has one', () => {
    expect(avatarSource(ana, 50)).toBe('http://127.0.0.1:4000/avatars/6pana/50si.png')
    expect(avatarSource(bo, 50)).toBe(bo.avatarUrl)
  })
})
