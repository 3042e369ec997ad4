// The feed benchmark's friends and their events, made from numbers: the bench's JSON peer serves them to the app,
// and the bare reference page draws the same rows from the same numbers. No Node: the reference page bundles this.

/** One event a minute, the newest `now`. */
const EVENT_SPACING_MS = 60_000

export interface BenchFriend {
  username: string
  displayName: string
}

const PARAGRAPHS = [
  'Nothing grand today, just a small thing worth writing down before it slips away.',
  'It rained all morning, which turned out to be the point: the light was soft and the streets were ours.',
  'A friend asked how I do it, so here is the long answer, shortened, with the mistakes left in.',
  'Three attempts, two failures, one I am keeping. The notes are below, for the next time.',
  'More on this soon, once I have tried it again with the better lens and a slower film.',
]

const TITLES = ['Notes from the darkroom', 'Street corners', 'A roll of Portra', 'Light through the blinds', 'Night train notes', 'From the market']

export function userOf(origin: string, friend: BenchFriend) {
  return {
    objectType: 'User',
    objectTypes: ['tag:api.typepad.com,2009:User'],
    id: `tag:127.0.0.1,2009:6p${friend.username}`,
    urlId: `6p${friend.username}`,
    displayName: friend.displayName,
    preferredUsername: friend.username,
    profilePageUrl: `${origin}/people/${friend.username}`,
    aboutMe: null,
    location: null,
    avatarLink: { url: `${origin}/avatars/${friend.username}/50si.svg`, width: 50, height: 50, urlTemplate: `${origin}/avatars/${friend.username}/{spec}.svg` },
  }
}

export function titleOf(number: number): string {
  return `${TITLES[number % TITLES.length]} ${number}`
}

/** The words of event `number`'s object, as the reference page draws them. */
export function excerptOf(number: number): string {
  return `${PARAGRAPHS[number % PARAGRAPHS.length]} ${PARAGRAPHS[(number + 2) % PARAGRAPHS.length]}`
}

/** Event `number` (0 is the oldest) of a stream whose newest is number `newest`, published at `now`. */
export function eventOf(origin: string, friend: BenchFriend, number: number, newest: number, now: number) {
  const actor = userOf(origin, friend)
  const published = new Date(now - (newest - number) * EVENT_SPACING_MS).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const post = {
    objectType: 'Post',
    id: `tag:127.0.0.1,2009:6a${friend.username}${number}`,
    urlId: `6a${friend.username}${number}`,
    published,
    permalinkUrl: `${origin}/${friend.username}/posts/${number}`,
    author: actor,
    container: { objectType: 'Blog', urlId: `6b${friend.username}`, displayName: `${friend.displayName}’s weblog`, homeUrl: `${origin}/${friend.username}/` },
    commentCount: number % 4,
    favoriteCount: number % 7,
    title: titleOf(number),
    excerpt: PARAGRAPHS[number % PARAGRAPHS.length],
    renderedContent: `<p>${PARAGRAPHS[number % PARAGRAPHS.length]}</p><p>${PARAGRAPHS[(number + 2) % PARAGRAPHS.length]} <a href="${origin}/${friend.username}/posts/${number}">Read on</a>, <em>slowly</em>.</p>`,
    embeddedImageLinks: [],
  }
  const object =
    number % 10 === 9
      ? {
          ...post,
          objectType: 'Comment',
          urlId: `6c${friend.username}${number}`,
          content: `${PARAGRAPHS[number % PARAGRAPHS.length]}\n\n${PARAGRAPHS[(number + 2) % PARAGRAPHS.length]}`,
          textFormat: 'html_convert_linebreaks',
          root: { objectType: 'Post', urlId: post.urlId, permalinkUrl: post.permalinkUrl, title: post.title, excerpt: null, author: actor },
          inReplyTo: { objectType: 'Post', urlId: post.urlId, permalinkUrl: post.permalinkUrl, title: post.title, excerpt: null, author: actor },
        }
      : post
  return {
    id: `tag:127.0.0.1,2009:6e${friend.username}${number}`,
    urlId: `6e${friend.username}${number}`,
    verb: number % 5 === 4 ? 'AddedFavorite' : 'NewAsset',
    verbs: [`tag:api.typepad.com,2009:${number % 5 === 4 ? 'AddedFavorite' : 'NewAsset'}`],
    published,
    actor,
    object: number % 5 === 4 ? post : object,
  }
}
