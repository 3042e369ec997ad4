// The sandbox's people: the demo user's profile, five friends with profiles, avatars and weblogs of their own, the
// group they all belong to, who follows whom, and four weeks of doing things together — posts, comments and replies,
// favourites — each with its event in the group, so the activity feed has a history before anything happens live.
// Deterministic: the same words and the same timeline, dated back from the moment the sandbox was first started.
import { formatW3cDate } from '../../src-protocol'
import { escapeHtml } from '../public/page'
import type { Comment, ObjectType, Post, Profile, Store, User, Verb } from '../store'

export const DEMO_GROUP = { displayName: 'Le Club du Dimanche', tagline: 'Friends who write on Sundays.' }

export const DEMO_USER_PROFILE: Profile = {
  aboutMe: 'Writing about records, recipes and slow travel from a small flat in Paris.',
  location: 'Paris, France',
  interests: ['vinyl', 'film photography', 'baking', 'slow travel'],
  avatarColor: '#8a4f9e',
}

export interface DemoFriend {
  username: string
  displayName: string
  profile: Profile
  weblog: { title: string; slug: string }
  /** Title, paragraphs, and how many days before the seeding it was posted. */
  posts: readonly (readonly [string, readonly string[], number])[]
}

export const DEMO_FRIENDS: readonly DemoFriend[] = [
  {
    username: 'jane',
    displayName: 'Jane Mallory',
    profile: {
      aboutMe: 'Photographer and occasional printer. I mostly shoot film, mostly in the rain.',
      location: 'London, England',
      interests: ['film photography', 'darkrooms', 'walking'],
      avatarColor: '#2d6f9e',
    },
    weblog: { title: 'Di doo dah', slug: 'di-doo-dah' },
    posts: [
      ['Contact sheet from Camden', ['Thirty-six frames of the market on a grey Saturday, and four I would print.', 'The light under the railway bridge did most of the work.'], 24],
      ['Fixing a light leak', ['Black tape, a torch in a dark room, and there it was: a worn seal by the hinge.', 'Two rolls ruined, one lesson learned.'], 13],
      ['Rain on the South Bank', ['Everyone else went home, so I had the river to myself.', 'Puddles make the best mirrors in London.'], 3],
    ],
  },
  {
    username: 'francoise',
    displayName: 'Françoise Aubry',
    profile: {
      aboutMe: 'Songs, chords and the odd cover version. I teach guitar on Wednesdays.',
      location: 'Paris, France',
      interests: ['songwriting', 'guitar', 'yé-yé'],
      avatarColor: '#b5485d',
    },
    weblog: { title: 'La question', slug: 'la-question' },
    posts: [
      ['Three chords and a question', ['Every song I like starts as three chords and a question I cannot answer yet.', 'This one took a month to find its second verse.'], 22],
      ['Teaching barre chords', ['Nobody likes barre chords in the first week. By the fourth, everybody does.', 'Press with the arm, not the thumb.'], 11],
      ['A cover for Sunday', ['An old yé-yé song, slowed down to half speed, recorded in one take in the kitchen.', 'The fridge hums along in the bridge. I kept it.'], 4],
    ],
  },
  {
    username: 'brigitte',
    displayName: 'Brigitte Roussel',
    profile: {
      aboutMe: "Cook, gardener, and collector of other people's recipes.",
      location: 'Lyon, France',
      interests: ['cooking', 'gardening', 'markets'],
      avatarColor: '#c0622f',
    },
    weblog: { title: 'Comme à la radio', slug: 'comme-a-la-radio' },
    posts: [
      ['Market day in Croix-Rousse', ['Cardoons, the first blood oranges, and a cheese seller who sings.', 'I came home with far too much, as always.'], 20],
      ['Plum jam, small batch', ['Two kilos of plums from the neighbour, a little sugar, no pectin.', 'Six jars, and one spoon for testing.'], 9],
      ['The herb bed, replanted', ['Thyme, sage and a rosemary that survived the winter against all odds.', 'The mint gets its own pot this year, for everyone’s sake.'], 2],
    ],
  },
  {
    username: 'nick',
    displayName: 'Nick Holloway',
    profile: {
      aboutMe: 'Trains, maps and long walks. Writing a guide to Europe by sleeper train.',
      location: 'Bristol, England',
      interests: ['trains', 'maps', 'travel writing'],
      avatarColor: '#4f7a28',
    },
    weblog: { title: 'Pink Moon', slug: 'pink-moon' },
    posts: [
      ['Paris to Venice by night', ['Dinner in the restaurant car, the Alps at dawn, coffee on the lagoon by nine.', 'Book the window side facing south.'], 18],
      ['Reading timetables for fun', ['A timetable is a story about a day, told in columns.', 'The footnotes are where the adventures are.'], 8],
      ['The map drawer', ['Forty years of walking maps, folded wrong, annotated in pencil.', 'I found a route I had forgotten I ever walked.'], 1],
    ],
  },
  {
    username: 'chet',
    displayName: 'Chet Morrow',
    profile: {
      aboutMe: 'Trumpet player. Late nights, early coffee.',
      location: 'Lisbon, Portugal',
      interests: ['jazz', 'trumpet', 'coffee'],
      avatarColor: '#5a5bb0',
    },
    weblog: { title: 'Almost Blue', slug: 'almost-blue' },
    posts: [
      ['A late set at the Hot Clube', ['Three sets, the last one for the staff and a dozen stubborn listeners.', 'Played Almost Blue slower than ever.'], 16],
      ['Valve oil and patience', ['A sticky third valve on the night of the gig. Valve oil, patience, and a prayer.', 'It held until the encore.'], 7],
      ['Morning coffee in Alfama', ['A bica, a pastry, and the whole city waking up below the window.', 'Best quiet hour of the day.'], 1],
    ],
  },
]

/** Who has whom as a neighbour, besides the demo user and each friend having each other, and when (days ago). */
const NEIGHBOURS_AMONG_FRIENDS: readonly (readonly [string, string, number])[] = [
  ['jane', 'nick', 25],
  ['nick', 'jane', 25],
  ['francoise', 'chet', 24],
  ['brigitte', 'jane', 23],
  ['chet', 'francoise', 21],
]
/** Neighbours the demo user also knows in person. */
const FRIENDS_OF_THE_DEMO_USER = ['francoise', 'brigitte']

/** Post title (the demo user's or a friend's), commenter, words, hours after the post; `replyTo`: an earlier comment's index. */
const COMMENTS: readonly { on: string; by: string; text: string; after: number; replyTo?: number }[] = [
  { on: 'Playing with friends', by: 'francoise', text: 'Next Thursday then! I will bring the capo you keep borrowing.', after: 3 },
  { on: 'Playing with friends', by: 'chet', text: 'If you ever need a trumpet that is slightly too loud, you know where I am.', after: 5 },
  { on: 'Playing with friends', by: 'melody', text: 'Chet, the room above the café is yours whenever you are in Paris.', after: 7, replyTo: 1 },
  { on: 'Sleeper train to Vienna', by: 'nick', text: 'The Naschmarkt by ten is exactly right.\nDid you take the couchette or splurge on a sleeper?', after: 4 },
  { on: 'Sleeper train to Vienna', by: 'melody', text: 'A couchette, with a very polite family from Graz. Worth it.', after: 6, replyTo: 3 },
  { on: 'Sunday roast chicken', by: 'brigitte', text: 'Drying the skin overnight is the whole secret. Try a spoon of mustard under it next time.', after: 2 },
  { on: 'Printing the best of the year', by: 'jane', text: 'Matte paper, yes! Send me the tree series when it is done, I want one for the hallway.', after: 3 },
  { on: 'The same tree, every month', by: 'jane', text: 'Such a good project. Same lens every time?', after: 5 },
  { on: 'Planning the summer trip', by: 'nick', text: 'Two nights in each place is the perfect pace. Take the coast road from Nice, not the motorway.', after: 2 },
  { on: 'Rain on the South Bank', by: 'melody', text: 'The reflections! Rain suits London.', after: 5 },
  { on: 'Plum jam, small batch', by: 'melody', text: 'Saving this for September. How long do the jars keep?', after: 4 },
  { on: 'Plum jam, small batch', by: 'brigitte', text: 'A year in a cool cupboard, if they last that long.', after: 8, replyTo: 10 },
  { on: 'A cover for Sunday', by: 'melody', text: 'Played it three times in a row. The bridge is lovely, fridge and all.', after: 6 },
  { on: 'Paris to Venice by night', by: 'melody', text: 'Now I want to do this in the other direction.', after: 3 },
  { on: 'A late set at the Hot Clube', by: 'melody', text: 'Wish I had been there. Next time I am in Lisbon I will find you.', after: 10 },
  { on: 'The map drawer', by: 'jane', text: 'I would like to photograph that drawer, please.', after: 2 },
]

/** Who favours which post (by title), hours after it was posted. */
const FAVOURITES: readonly (readonly [string, string, number])[] = [
  ['francoise', 'Playing with friends', 2],
  ['chet', 'Playing with friends', 6],
  ['nick', 'Sleeper train to Vienna', 3],
  ['brigitte', 'Sunday roast chicken', 4],
  ['jane', 'The same tree, every month', 6],
  ['jane', 'Printing the best of the year', 2],
  ['melody', 'Rain on the South Bank', 4],
  ['melody', 'A cover for Sunday', 5],
  ['melody', 'The map drawer', 3],
  ['melody', 'Plum jam, small batch', 2],
  ['nick', 'Rain on the South Bank', 7],
]

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
/** Everyone joined the group this many days before the sandbox first started. */
const GROUP_AGE_DAYS = 28

/**
 * Seeds the demo user's social world unless its group exists (so a data dir from before it gets it on its next
 * start). `demoUserId` is the demo user; their weblog's posts, already seeded, are what friends comment on.
 */
export function ensureDemoSocial(store: Store, demoUserId: number, now = new Date()): Promise<void> {
  return store.transaction(async () => {
    if (await store.groups.findByName(DEMO_GROUP.displayName)) return
    await seedDemoSocial(store, demoUserId, now)
  })
}

async function seedDemoSocial(store: Store, demoUserId: number, now: Date): Promise<void> {
  const at = (milliseconds: number) => formatW3cDate(new Date(Math.min(milliseconds, now.getTime() - 60_000)))
  const daysAgo = (days: number) => at(now.getTime() - days * DAY_MS)

  await store.profiles.set(demoUserId, DEMO_USER_PROFILE)
  const group = await store.groups.add({ ...DEMO_GROUP, siteUrl: null })
  await store.groups.join(group.id, demoUserId, 'Admin', daysAgo(GROUP_AGE_DAYS))

  // The cast by name; the demo user is "melody" in COMMENTS and FAVOURITES.
  const people = new Map<string, User>([['melody', (await store.profiles.person(demoUserId))!]])
  const posts = new Map<string, Post>()
  for (const weblog of await store.weblogs.ownedBy(demoUserId)) {
    for (const post of await store.posts.page(weblog.id, 0, 20)) posts.set(post.title, post)
  }

  const record = (actorId: number, verb: Verb, objectType: ObjectType, objectId: number, published: string) =>
    store.events.record({ actorId, verb, objectType, objectId, published, groupId: group.id })

  for (const friend of DEMO_FRIENDS) {
    const user = await store.users.add({
      username: friend.username,
      displayName: friend.displayName,
      // Friends never sign in; their passwords are only there because every account has them.
      loginPassword: store.secrets.derive(`demo friend ${friend.username} login password`),
      apiPassword: store.secrets.derive(`demo friend ${friend.username} API password`),
    })
    people.set(friend.username, user)
    await store.profiles.set(user.id, friend.profile)
    await store.groups.join(group.id, user.id, 'Member', daysAgo(GROUP_AGE_DAYS - 0.1))
    const weblog = await store.weblogs.add({ ownerId: user.id, ...friend.weblog })
    for (const [title, paragraphs, age] of friend.posts) {
      const issued = daysAgo(age - 0.3)
      const content = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')
      const post = await store.posts.create(
        weblog.id,
        user.id,
        { title, content, contentKind: 'xhtml', summary: paragraphs[0]!, issued, categories: [] },
        issued,
      )
      posts.set(title, post)
      await record(user.id, 'NewAsset', 'Post', post.id, issued)
    }
  }

  const person = (username: string) => people.get(username)!
  const neighbours: (readonly [string, string, number])[] = DEMO_FRIENDS.flatMap((friend, index) => [
    ['melody', friend.username, GROUP_AGE_DAYS - 1 - index * 0.2] as const,
    [friend.username, 'melody', GROUP_AGE_DAYS - 1.5 - index * 0.3] as const,
  ])
  for (const [source, target, age] of [...neighbours, ...NEIGHBOURS_AMONG_FRIENDS]) {
    const when = daysAgo(age)
    await store.relationships.add(person(source).id, person(target).id, 'neighbor', when)
    await record(person(source).id, 'AddedNeighbor', 'User', person(target).id, when)
  }
  for (const username of FRIENDS_OF_THE_DEMO_USER) {
    await store.relationships.add(demoUserId, person(username).id, 'friend', daysAgo(GROUP_AGE_DAYS - 1))
    await store.relationships.add(person(username).id, demoUserId, 'friend', daysAgo(GROUP_AGE_DAYS - 1))
  }

  const comments: (Comment | null)[] = []
  for (const comment of COMMENTS) {
    const post = posts.get(comment.on)
    const parent = comment.replyTo === undefined ? undefined : comments[comment.replyTo]
    // A post the demo user has deleted, or a comment not made for that reason, leaves its conversation out.
    if (!post || parent === null) {
      comments.push(null)
      continue
    }
    const published = at(Date.parse(post.issued) + comment.after * HOUR_MS)
    const stored = await store.comments.add({
      postId: post.id,
      authorId: person(comment.by).id,
      inReplyTo: parent?.id ?? null,
      content: escapeHtml(comment.text),
      textFormat: 'html_convert_linebreaks',
      published,
    })
    comments.push(stored)
    await record(stored.authorId, 'NewAsset', 'Comment', stored.id, published)
  }

  for (const [username, title, after] of FAVOURITES) {
    const post = posts.get(title)
    if (!post) continue
    const published = at(Date.parse(post.issued) + after * HOUR_MS)
    await store.favorites.add(person(username).id, post.id, published)
    await record(person(username).id, 'AddedFavorite', 'Post', post.id, published)
  }
}
