// `--simulate <seconds>`: the sandbox's friends keep busy while the service runs. Every interval one of them does
// one thing — writes a post, comments on someone's recent post, favours one, or adds a neighbour — recorded with its
// event in the demo group, so a feed that polls sees news arrive. Stopping is immediate: no act starts after stop().
import { formatW3cDate } from '../../src-protocol'
import { escapeHtml } from '../public/page'
import { SetupError } from '../setup-error'
import type { Group, ObjectType, Post, Store, User, Verb, Weblog } from '../store'
import { DEMO_FRIENDS, DEMO_GROUP } from './social'

export interface Simulation {
  stop(): void
}

/** What friends write about, by username; a post's title adds when it was written. */
const POST_TOPICS: Readonly<Record<string, readonly string[]>> = {
  jane: ['Notes from the darkroom', 'Street corners', 'A roll of Portra', 'Light through the blinds'],
  francoise: ['A new song, half finished', 'Rehearsal notes', 'Chords for beginners', 'A cover I love'],
  brigitte: ['From the market', 'Soup of the day', 'In the garden', 'A recipe from my aunt'],
  nick: ['A timetable worth reading', 'Night train notes', 'The long way round', 'A map I found'],
  chet: ['After the gig', 'Practice log', 'A tune I keep humming', 'Coffee and scales'],
}

const POST_LINES: readonly string[] = [
  'Nothing grand today, just a small thing worth writing down.',
  'I meant to write this last week, and the week before.',
  'It rained all morning, which turned out to be the point.',
  'A friend asked how I do it, so here is the long answer, shortened.',
  'Three attempts, two failures, one I am keeping.',
  'More on this soon, once I have tried it again.',
]

const COMMENT_LINES: readonly string[] = [
  'Love this.',
  'I have been meaning to try this for ages. Thank you for the nudge.',
  'This made my morning.',
  'Saving this for the weekend.',
  'You always find the best ones.',
  'So good. More of these, please.',
  'Now I know what I am doing on Sunday.',
]

const WEEKDAY = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' })

/** How many recent posts of each weblog friends look at for something to comment on or favour. */
const RECENT_POSTS = 5

interface Cast {
  group: Group
  /** The demo user first, then the friends. */
  everyone: User[]
  friends: { user: User; weblog: Weblog }[]
}

/**
 * Starts the friends acting every `intervalSeconds`. The demo data (--demo) must be seeded; `random` picks who does
 * what, and is replaceable so a test can follow the story.
 */
export function startSimulation(
  store: Store,
  demoUsername: string,
  intervalSeconds: number,
  random: () => number = Math.random,
): Simulation {
  const cast = findCast(store, demoUsername)
  let stopped = false
  const timer = setInterval(() => {
    if (stopped) return
    try {
      act(store, cast, random)
    } catch (error) {
      console.error('The sandbox simulation could not act this time:', error)
    }
  }, intervalSeconds * 1000)
  // The server keeps the process alive; the simulation alone should not.
  timer.unref()
  return {
    stop: () => {
      stopped = true
      clearInterval(timer)
    },
  }
}

function findCast(store: Store, demoUsername: string): Cast {
  const group = store.groups.findByName(DEMO_GROUP.displayName)
  const demoUser = store.users.find(demoUsername)
  const friends = DEMO_FRIENDS.flatMap((friend) => {
    const user = store.users.find(friend.username)
    const weblog = user && store.weblogs.ownedBy(user.id)[0]
    return user && weblog ? [{ user, weblog }] : []
  })
  if (!group || !demoUser || friends.length === 0) {
    throw new SetupError('--simulate makes the demo friends act, so it needs their data: start with --demo as well.')
  }
  return { group, everyone: [demoUser, ...friends.map((friend) => friend.user)], friends }
}

function act(store: Store, cast: Cast, random: () => number): void {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const { user, weblog } = pick(cast.friends)
  const now = formatW3cDate(new Date())
  const record = (verb: Verb, objectType: ObjectType, objectId: number) =>
    store.events.record({ actorId: user.id, verb, objectType, objectId, published: now, groupId: cast.group.id })

  store.transaction(() => {
    const othersPosts = cast.everyone
      .filter((other) => other.id !== user.id)
      .flatMap((other) => store.weblogs.ownedBy(other.id))
      .flatMap((other) => store.posts.page(other.id, 0, RECENT_POSTS))
    const unfavoured = othersPosts.filter((post) => !store.favorites.has(user.id, post.id))
    const strangers = cast.everyone.filter(
      (other) => other.id !== user.id && !store.relationships.has(user.id, other.id, 'neighbor'),
    )

    const roll = random()
    if (roll < 0.35 && othersPosts.length > 0) {
      const post = pick(othersPosts)
      const comment = store.comments.add({
        postId: post.id,
        authorId: user.id,
        inReplyTo: null,
        content: escapeHtml(pick(COMMENT_LINES)),
        textFormat: 'html_convert_linebreaks',
        published: now,
      })
      record('NewAsset', 'Comment', comment.id)
    } else if (roll < 0.6 && unfavoured.length > 0) {
      const post = pick(unfavoured)
      store.favorites.add(user.id, post.id, now)
      record('AddedFavorite', 'Post', post.id)
    } else if (roll < 0.7 && strangers.length > 0) {
      const neighbour = pick(strangers)
      store.relationships.add(user.id, neighbour.id, 'neighbor', now)
      record('AddedNeighbor', 'User', neighbour.id)
    } else {
      record('NewAsset', 'Post', writePost(store, user, weblog, now, pick).id)
    }
  })
}

function writePost(store: Store, user: User, weblog: Weblog, now: string, pick: <T>(items: readonly T[]) => T): Post {
  const date = new Date(now)
  const when = `${WEEKDAY.format(date)} ${partOfDay(date.getUTCHours())}`
  const title = `${pick(POST_TOPICS[user.username] ?? ['A note'])}, ${when}`
  const lines = [pick(POST_LINES), pick(POST_LINES)]
  return store.posts.create(
    weblog.id,
    user.id,
    {
      title,
      content: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
      contentKind: 'xhtml',
      summary: lines[0]!,
      issued: now,
      categories: [],
    },
    now,
  )
}

function partOfDay(hour: number): string {
  if (hour < 5) return 'night'
  if (hour < 9) return 'early morning'
  if (hour < 12) return 'morning'
  if (hour < 18) return 'afternoon'
  return hour < 22 ? 'evening' : 'night'
}
