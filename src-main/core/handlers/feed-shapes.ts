// From what the JSON interface and the feed poller say to what the feed shows: people, friends, events in words the
// renderer can put into sentences, and where a friend's cached feed stands.
import type { ActivityEvent, FeedState, FriendSummary, Person } from '../../../src-shared/contract'
import type { FeedStatus, Friend } from '../feed'
import type { JsonAssetRef, JsonEvent, JsonEventObject, JsonUser, TextFormat } from '../json'

/** How much of a comment or list item's text an excerpt keeps. */
const EXCERPT_LENGTH = 280

export function personOf(user: JsonUser): Person {
  return {
    urlId: user.urlId,
    username: user.preferredUsername,
    displayName: user.displayName,
    avatarUrl: user.avatarLink.url,
    avatarTemplate: user.avatarLink.urlTemplate,
    profilePageUrl: user.profilePageUrl,
  }
}

export function friendSummaryOf(friend: Friend): FriendSummary {
  return {
    id: friend.id,
    accountId: friend.accountId,
    urlId: friend.urlId,
    username: friend.username,
    displayName: friend.displayName,
    avatarUrl: friend.avatarUrl,
    avatarTemplate: friend.avatarTemplate,
    profilePageUrl: friend.profilePageUrl,
    newCount: friend.newCount,
    offline: friend.offline,
    problem: friend.problem,
    loadRemoteImages: friend.loadRemoteImages,
  }
}

export function feedStateOf(status: FeedStatus): FeedState {
  return {
    friend: friendSummaryOf(status.friend),
    total: status.total,
    newCount: status.newCount,
    hasOlder: status.hasOlder,
    offline: status.offline,
    problem: status.problem,
    newestUrlId: status.newestUrlId,
  }
}

export function activityEventOf(event: JsonEvent): ActivityEvent {
  return { urlId: event.urlId, verb: event.verb, published: event.published, actor: personOf(event.actor), object: objectOf(event.object) }
}

function objectOf(object: JsonEventObject): ActivityEvent['object'] {
  const none = { title: null, excerpt: null, html: null, permalink: null, person: null, imageUrl: null }
  switch (object.objectType) {
    case 'User':
      return { ...none, kind: 'User', title: object.displayName, permalink: object.profilePageUrl, person: personOf(object) }
    case 'Post':
      return {
        ...none,
        kind: 'Post',
        title: object.title || null,
        excerpt: object.excerpt || null,
        html: object.renderedContent || null,
        permalink: object.permalinkUrl,
      }
    case 'Comment': {
      const html = htmlOf(object.content, object.textFormat)
      // A comment is named by what it answers: the post, or the comment it replies to.
      return { ...none, kind: 'Comment', title: answered(object.inReplyTo) ?? answered(object.root), excerpt: excerptOf(html), html, permalink: object.permalinkUrl }
    }
    case 'Photo':
      return {
        ...none,
        kind: 'Photo',
        title: object.title || null,
        excerpt: object.description,
        permalink: object.permalinkUrl,
        imageUrl: (object.thumbnailLink ?? object.imageLink).url,
      }
    default: {
      const html = htmlOf(object.content, object.textFormat)
      return { ...none, kind: object.objectType, title: object.title || null, excerpt: excerptOf(html), html, permalink: object.permalinkUrl }
    }
  }
}

function answered(asset: JsonAssetRef): string | null {
  return asset.title || asset.excerpt || null
}

/** `html_convert_linebreaks`: a blank line starts a paragraph, a single line break stays one. */
function htmlOf(content: string, format: TextFormat): string | null {
  if (content.trim() === '') return null
  if (format === 'html') return content
  return content
    .trim()
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('')
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** The words of some HTML, shortened: shown as text, so nothing in it is ever markup. */
function excerptOf(html: string | null): string | null {
  if (html === null) return null
  const words = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (!name.startsWith('#')) return ENTITIES[name.toLowerCase()] ?? entity
      const codePoint = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity
    })
    .replace(/\s+/g, ' ')
    .trim()
  if (words === '') return null
  return words.length <= EXCERPT_LENGTH ? words : `${words.slice(0, EXCERPT_LENGTH).replace(/\s+\S*$/, '')}…`
}
