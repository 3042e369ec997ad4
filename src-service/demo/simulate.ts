// `--simulate <seconds>`: the sandbox's friends keep busy while the service runs. Every interval one of them does
// one thing — writes a post, comments on someone's recent post, favours one, or adds a neighbour — recorded with its
// event in the demo group, so a feed that polls sees news arrive. No act starts after stop(), which resolves once the
// act under way (if any) has ended.
import { formatW3cDate } from '../../src-protocol'
import { escapeHtml } from '../public/page'
import { SetupError } from '../setup-error'
import type { Group, ObjectType, Post, Store, User, Verb, Weblog } from '../store'
import { DEMO_FRIENDS, DEMO_GROUP } from './social'

export interface Simulation {
  stop(): Promise<void>
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
export async function startSimulation(
  store: Store,
  demoUsername: string,
  intervalSeconds: number,
  random: () => number = Math.random,
): Promise<Simulation> {
  const cast = await findCast(store, demoUsername)
  let stopped = false
  // One act at a time: a slow one delays the next instead of overlapping it.
  let acting: Promise<void> | null = null
  const timer = setInterval(() => {
    if (stopped || acting) return
    acting = act(store, cast, random)
      .catch((error: unknown) => console.error('The sandbox simulation could not act this time:', error))
      .finally(() => (acting = null))
  }, intervalSeconds * 1000)
  // The server keeps the process alive; the simulation alone should not.
  timer.unref()
  return {
    stop: async () => {
      stopped = true
      clearInterval(timer)
      await acting
    },
  }
}

async function findCast(store: Store, demoUsername: string): Promise<Cast> {
  const group = await store.groups.findByName(DEMO_GROUP.displayName)
  const demoUser = await store.users.find(demoUsername)
  const friends: Cast['friends'] = []
  for (const friend of DEMO_FRIENDS) {
    const user = await store.users.find(friend.username)
    const weblog = user && (await store.weblogs.ownedBy(user.id))[0]
    if (user && weblog) friends.push({ user, weblog })
  }
  if (!group || !demoUser || friends.length === 0) {
    throw new SetupError('--simulate makes the demo friends act, so it needs their data: start with --demo as well.')
  }
  return { group, everyone: [demoUser, ...friends.map((friend) => friend.user)], friends }
}

async function act(store: Store, cast: Cast, random: () => number): Promise<void> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const { user, weblog } = pick(cast.friends)
  const now = formatW3cDate(new Date())
  const record = (verb: Verb, objectType: ObjectType, objectId: number) =>
    store.events.record({ actorId: user.id, verb, objectType, objectId, published: now, groupId: cast.group.id })

  await store.transaction(async () => {
    const othersPosts: Post[] = []
    const strangers: User[] = []
    for (const other of cast.everyone.filter((someone) => someone.id !== user.id)) {
      for (const otherWeblog of await store.weblogs.ownedBy(other.id)) {
        othersPosts.push(...(await store.posts.page(otherWeblog.id, 0, RECENT_POSTS)))
      }
      if (!(await store.relationships.has(user.id, other.id, 'neighbor'))) strangers.push(other)
    }
    const unfavoured: Post[] = []
    for (const post of othersPosts) if (!(await store.favorites.has(user.id, post.id))) unfavoured.push(post)

    const roll = random()
    if (roll < 0.35 && othersPosts.length > 0) {
      const post = pick(othersPosts)
      const comment = await store.comments.add({
        postId: post.id,
        authorId: user.id,
        inReplyTo: null,
        content: escapeHtml(pick(COMMENT_LINES)),
        textFormat: 'html_convert_linebreaks',
        published: now,
      })
      await record('NewAsset', 'Comment', comment.id)
    } else if (roll < 0.6 && unfavoured.length > 0) {
      const post = pick(unfavoured)
      await store.favorites.add(user.id, post.id, now)
      await record('AddedFavorite', 'Post', post.id)
    } else if (roll < 0.7 && strangers.length > 0) {
      const neighbour = pick(strangers)
      await store.relationships.add(user.id, neighbour.id, 'neighbor', now)
      await record('AddedNeighbor', 'User', neighbour.id)
    } else {
      await record('NewAsset', 'Post', (await writePost(store, user, weblog, now, pick)).id)
    }
  })
}

function writePost(store: Store, user: User, weblog: Weblog, now: string, pick: <T>(items: readonly T[]) => T): Promise<Post> {
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
