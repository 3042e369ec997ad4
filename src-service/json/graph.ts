// Stored objects as the JSON interface shows them (json/shapes.ts). One JsonGraph serves one request: it reads what
// a page of events needs a kind at a time (every post of the page in one query, every author in another…) and
// remembers it, so a post that two events name, or an author of many posts, is read and rendered once.
import { plainTextOf } from '../../src-protocol'
import { albumPageUrl, photoPageUrl } from '../public/albums'
import { photoFileUrl, thumbnailUrl } from '../public/media'
import { escapeHtml } from '../public/page'
import { AVATAR_LINK_SIZE, avatarUrl, groupPageUrl, profilePageUrl } from '../public/profiles'
import { contentHtml, sanitizeHtml } from '../public/sanitize'
import { itemAddresses, listAddresses } from '../routes/lists-entry'
import { postAddresses, weblogAddresses } from '../routes/posts-entry'
import { tagDomain } from '../routes/tag-uri'
import {
  itemTitle,
  type Album,
  type Comment,
  type EventRecord,
  type Group,
  type List,
  type ListItem,
  type ListType,
  type ObjectType,
  type Person,
  type Photo,
  type Post,
  type Store,
  type UrlIdKind,
  type Weblog,
} from '../store'
import type {
  AssetRefJson,
  CommentJson,
  ContainerJson,
  EventJson,
  EventObjectJson,
  GroupJson,
  ImageLink,
  ListItemJson,
  PhotoJson,
  PostJson,
  TextFormat,
  UserJson,
} from './shapes'
import { embeddedImagesOf, excerptOf } from './text'

/** Where the JSON of an asset is, relative to the service (AssetRef.href). */
function assetHref(urlId: string): string {
  return `/assets/${urlId}.json`
}

const LIST_ITEM_TYPES: Record<ListType, ListItemJson['objectType']> = {
  music: 'Song',
  books: 'Book',
  people: 'Person',
  links: 'Link',
}

/** Values by row id, loaded many ids per query; an id that names nothing is remembered as such. */
class Batched<V> {
  readonly #values = new Map<number, V | null>()
  readonly #load: (ids: number[]) => Promise<Map<number, V>>

  constructor(load: (ids: number[]) => Promise<Map<number, V>>) {
    this.#load = load
  }

  /** Loads, in one go, those of `ids` not loaded yet. */
  async prime(ids: Iterable<number>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#values.has(id))
    if (missing.length === 0) return
    const found = await this.#load(missing)
    for (const id of missing) this.#values.set(id, found.get(id) ?? null)
  }

  async get(id: number): Promise<V | null> {
    await this.prime([id])
    return this.#values.get(id) ?? null
  }

  /** The values loaded so far, for following their references. */
  loaded(): V[] {
    return [...this.#values.values()].filter((value): value is V => value !== null)
  }
}

function oneByOne<V>(find: (id: number) => Promise<V | null>): (ids: number[]) => Promise<Map<number, V>> {
  return async (ids) => {
    const found = new Map<number, V>()
    for (const id of ids) {
      const value = await find(id)
      if (value !== null) found.set(id, value)
    }
    return found
  }
}

export class JsonGraph {
  readonly #store: Store
  readonly #origin: string
  readonly #domain: string
  readonly #people: Batched<Person>
  readonly #posts: Batched<Post>
  readonly #weblogs: Batched<Weblog>
  readonly #comments: Batched<Comment>
  readonly #photos: Batched<Photo>
  readonly #albums: Batched<Album>
  readonly #listItems: Batched<ListItem>
  readonly #lists: Batched<List>
  readonly #groups: Batched<Group>
  readonly #favoriteCounts: Batched<number>
  readonly #commentCounts: Batched<number>
  readonly #replyCounts: Batched<number>
  readonly #urlIds = new Map<UrlIdKind, Batched<string>>()
  readonly #groupsOfAssets = new Map<ObjectType, Batched<number>>()
  readonly #userJson = new Map<number, UserJson | null>()
  readonly #postJson = new Map<number, PostJson | null>()

  constructor(store: Store, origin: string) {
    this.#store = store
    this.#origin = origin
    this.#domain = tagDomain(origin)
    this.#people = new Batched((ids) => store.profiles.people(ids))
    this.#posts = new Batched((ids) => store.batch.posts(ids))
    this.#weblogs = new Batched((ids) => store.batch.weblogs(ids))
    this.#comments = new Batched((ids) => store.comments.many(ids))
    // Photos and list items are few in any stream; one query each is plenty.
    this.#photos = new Batched(oneByOne((id) => store.photos.find(id)))
    this.#albums = new Batched(oneByOne((id) => store.albums.find(id)))
    this.#listItems = new Batched(oneByOne((id) => store.lists.findItem(id)))
    this.#lists = new Batched(oneByOne((id) => store.lists.find(id)))
    this.#groups = new Batched((ids) => store.groups.many(ids))
    this.#favoriteCounts = new Batched((ids) => store.favorites.countsFor(ids))
    this.#commentCounts = new Batched((ids) => store.comments.countsForPosts(ids))
    this.#replyCounts = new Batched((ids) => store.comments.replyCounts(ids))
  }

  /** The events whose actor and object still exist, in the order given. */
  async events(records: readonly EventRecord[]): Promise<EventJson[]> {
    await this.#prefetch(records)
    const events: EventJson[] = []
    for (const record of records) {
      const event = await this.event(record)
      if (event !== null) events.push(event)
    }
    return events
  }

  /** Null when its actor or object is gone. */
  async event(record: EventRecord): Promise<EventJson | null> {
    const actor = await this.user(record.actorId)
    const object =
      record.objectType === 'User' ? await this.user(record.objectId) : await this.asset(record.objectType, record.objectId)
    if (!actor || !object) return null
    return {
      id: this.#tag(record.urlId),
      urlId: record.urlId,
      actor,
      object,
      published: record.published,
      verb: record.verb,
      verbs: [this.#tag(record.verb)],
    }
  }

  async user(userId: number): Promise<UserJson | null> {
    let json = this.#userJson.get(userId)
    if (json === undefined) {
      const person = await this.#people.get(userId)
      json = person && this.#userOf(person)
      this.#userJson.set(userId, json)
    }
    return json
  }

  asset(kind: Exclude<ObjectType, 'User'>, id: number): Promise<Exclude<EventObjectJson, UserJson> | null> {
    switch (kind) {
      case 'Post':
        return this.post(id)
      case 'Comment':
        return this.#comment(id)
      case 'Photo':
        return this.#photo(id)
      case 'ListItem':
        return this.#listItem(id)
    }
  }

  async post(postId: number): Promise<PostJson | null> {
    let json = this.#postJson.get(postId)
    if (json === undefined) {
      const post = await this.#posts.get(postId)
      json = post && (await this.#postOf(post))
      this.#postJson.set(postId, json)
    }
    return json
  }

  group(group: Group): GroupJson {
    return {
      urlId: group.urlId,
      objectType: 'Group',
      objectTypes: this.#types('Group'),
      id: this.#tag(group.urlId),
      siteUrl: group.siteUrl ?? groupPageUrl(this.#origin, group),
      displayName: group.displayName,
    }
  }

  /** Reads what the events will need, each kind in as few queries as it takes. */
  async #prefetch(records: readonly EventRecord[]): Promise<void> {
    const ids = (type: ObjectType) =>
      records.filter((record) => record.objectType === type).map((record) => record.objectId)
    await this.#comments.prime(ids('Comment'))
    await this.#comments.prime(this.#comments.loaded().flatMap((comment) => comment.inReplyTo ?? []))
    const comments = this.#comments.loaded()
    await this.#posts.prime([...ids('Post'), ...comments.map((comment) => comment.postId)])
    const posts = this.#posts.loaded()
    await this.#weblogs.prime(posts.map((post) => post.weblogId))
    await this.#photos.prime(ids('Photo'))
    await this.#albums.prime(this.#photos.loaded().map((photo) => photo.albumId))
    await this.#listItems.prime(ids('ListItem'))
    await this.#lists.prime(this.#listItems.loaded().map((item) => item.listId))
    await this.#people.prime([
      ...records.map((record) => record.actorId),
      ...ids('User'),
      ...posts.map((post) => post.authorId),
      ...comments.map((comment) => comment.authorId),
      ...this.#albums.loaded().map((album) => album.ownerId),
      ...this.#lists.loaded().map((list) => list.ownerId),
    ])
    await this.#urlIdsOf('User').prime(this.#people.loaded().map((person) => person.id))
    await this.#urlIdsOf('Post').prime(posts.map((post) => post.id))
    await this.#urlIdsOf('Blog').prime(posts.map((post) => post.weblogId))
    await this.#urlIdsOf('Comment').prime(comments.map((comment) => comment.id))
    await this.#favoriteCounts.prime(posts.map((post) => post.id))
    await this.#commentCounts.prime(posts.map((post) => post.id))
    await this.#replyCounts.prime(ids('Comment'))
    for (const type of ['Post', 'Comment', 'Photo', 'ListItem'] as const) await this.#groupsOf(type).prime(ids(type))
    await this.#groups.prime([...this.#groupsOfAssets.values()].flatMap((groups) => groups.loaded()))
  }

  #userOf(person: Person): UserJson {
    return {
      id: this.#tag(person.urlId),
      urlId: person.urlId,
      objectType: 'User',
      objectTypes: this.#types('User'),
      displayName: person.displayName,
      preferredUsername: person.username,
      profilePageUrl: profilePageUrl(this.#origin, person.username),
      aboutMe: person.aboutMe,
      location: person.location,
      interests: person.interests,
      avatarLink: this.#avatarLink(person),
    }
  }

  #avatarLink(person: Person): ImageLink {
    return {
      width: AVATAR_LINK_SIZE,
      height: AVATAR_LINK_SIZE,
      url: avatarUrl(this.#origin, person.urlId, `${AVATAR_LINK_SIZE}si`),
      urlTemplate: avatarUrl(this.#origin, person.urlId, '{spec}'),
    }
  }

  async #postOf(post: Post): Promise<PostJson | null> {
    const weblog = await this.#weblogs.get(post.weblogId)
    const author = await this.user(post.authorId)
    const urlId = await this.#urlIdsOf('Post').get(post.id)
    const container = weblog && (await this.#blog(weblog))
    if (!weblog || !author || urlId === null || !container) return null
    const renderedContent = contentHtml(post.contentKind, post.content)
    const markup = post.contentKind === 'xhtml'
    return {
      id: this.#tag(urlId),
      urlId,
      objectType: 'Post',
      objectTypes: this.#types('Post'),
      title: post.title,
      content: markup ? post.content : escapeHtml(post.content),
      renderedContent,
      excerpt: excerptOf(post.summary?.trim() || plainTextOf(renderedContent)),
      description: post.summary ?? '',
      filename: String(post.id),
      shortUrl: `${this.#origin}/p/${urlId}`,
      permalinkUrl: postAddresses(this.#origin, weblog, post.id).alternate,
      textFormat: markup ? 'html' : 'html_convert_linebreaks',
      published: post.issued,
      author,
      container,
      groups: await this.#groupIds('Post', post.id),
      categories: post.categories,
      commentCount: (await this.#commentCounts.get(post.id)) ?? 0,
      favoriteCount: (await this.#favoriteCounts.get(post.id)) ?? 0,
      reblogCount: 0,
      hasExtendedContent: false,
      // The sanitiser lets no audio or video element through, so posts embed images only.
      embeddedAudioLinks: [],
      embeddedImageLinks: embeddedImagesOf(renderedContent),
      embeddedVideoLinks: [],
    }
  }

  async #comment(commentId: number): Promise<CommentJson | null> {
    const comment = await this.#comments.get(commentId)
    const post = comment && (await this.post(comment.postId))
    const author = comment && (await this.user(comment.authorId))
    const root = post && this.#postRef(post)
    const urlId = await this.#urlIdsOf('Comment').get(commentId)
    if (!comment || !post || !author || !root || urlId === null) return null
    const parent = comment.inReplyTo === null ? null : await this.#comments.get(comment.inReplyTo)
    return {
      id: this.#tag(urlId),
      urlId,
      objectType: 'Comment',
      objectTypes: this.#types('Comment'),
      content: comment.content,
      title: null,
      description: null,
      textFormat: comment.textFormat,
      published: comment.published,
      permalinkUrl: commentPermalink(post, urlId),
      author,
      commenter: { href: author.profilePageUrl, name: author.displayName, avatarLink: author.avatarLink },
      container: post.container,
      groups: await this.#groupIds('Comment', comment.id),
      root,
      inReplyTo: (parent && (await this.#commentRef(parent, post))) ?? root,
      commentCount: (await this.#replyCounts.get(comment.id)) ?? 0,
      // Only posts can be favourites.
      favoriteCount: 0,
    }
  }

  async #photo(photoId: number): Promise<PhotoJson | null> {
    const photo = await this.#photos.get(photoId)
    const album = photo && (await this.#albums.get(photo.albumId))
    const author = album && (await this.user(album.ownerId))
    const urlId = await this.#urlIdsOf('Photo').get(photoId)
    const albumUrlId = album && (await this.#urlIdsOf('Album').get(album.id))
    if (!photo || !album || !author || urlId === null || !albumUrlId) return null
    return {
      id: this.#tag(urlId),
      urlId,
      objectType: 'Photo',
      objectTypes: this.#types('Photo'),
      title: photo.title,
      content: photo.caption === null ? '' : escapeHtml(photo.caption),
      description: photo.caption,
      textFormat: 'html_convert_linebreaks',
      published: photo.issued,
      permalinkUrl: photoPageUrl(this.#origin, photo),
      author,
      container: this.#container('Album', albumUrlId, album.title, albumPageUrl(this.#origin, album)),
      groups: await this.#groupIds('Photo', photo.id),
      commentCount: 0,
      favoriteCount: 0,
      imageLink: { width: photo.width, height: photo.height, url: photoFileUrl(this.#origin, photo) },
      thumbnailLink: { width: photo.thumbnailWidth, height: photo.thumbnailHeight, url: thumbnailUrl(this.#origin, photo) },
    }
  }

  async #listItem(itemId: number): Promise<ListItemJson | null> {
    const item = await this.#listItems.get(itemId)
    const list = item && (await this.#lists.get(item.listId))
    const author = list && (await this.user(list.ownerId))
    const urlId = await this.#urlIdsOf('ListItem').get(itemId)
    const listUrlId = list && (await this.#urlIdsOf('List').get(list.id))
    if (!item || !list || !author || urlId === null || !listUrlId) return null
    const { email: _private, ...details } = item.fields as Record<string, string>
    const notes = notesContent(item)
    const json: ListItemJson = {
      id: this.#tag(urlId),
      urlId,
      objectType: LIST_ITEM_TYPES[list.type],
      objectTypes: this.#types(LIST_ITEM_TYPES[list.type]),
      title: itemTitle(list.type, item.fields),
      content: notes.content,
      textFormat: notes.textFormat,
      published: item.issued,
      permalinkUrl: itemAddresses(this.#origin, list, item.id).alternate,
      author,
      container: this.#container('List', listUrlId, list.title, listAddresses(this.#origin, list).page),
      groups: await this.#groupIds('ListItem', item.id),
      commentCount: 0,
      favoriteCount: 0,
      rating: item.rating,
      details,
    }
    if (list.type === 'links' && item.fields.url !== undefined) json.targetUrl = item.fields.url
    return json
  }

  #postRef(post: PostJson): AssetRefJson {
    return {
      id: post.id,
      urlId: post.urlId,
      objectType: 'Post',
      objectTypes: post.objectTypes,
      href: assetHref(post.urlId),
      type: 'application/json',
      permalinkUrl: post.permalinkUrl,
      title: post.title,
      author: post.author,
    }
  }

  async #commentRef(comment: Comment, post: PostJson): Promise<AssetRefJson | null> {
    const urlId = await this.#urlIdsOf('Comment').get(comment.id)
    const author = await this.user(comment.authorId)
    if (urlId === null || !author) return null
    return {
      id: this.#tag(urlId),
      urlId,
      objectType: 'Comment',
      objectTypes: this.#types('Comment'),
      href: assetHref(urlId),
      type: 'application/json',
      permalinkUrl: commentPermalink(post, urlId),
      excerpt: excerptOf(plainTextOf(sanitizeHtml(comment.content))),
      author,
    }
  }

  async #blog(weblog: Weblog): Promise<ContainerJson | null> {
    const urlId = await this.#urlIdsOf('Blog').get(weblog.id)
    return urlId === null ? null : this.#container('Blog', urlId, weblog.title, weblogAddresses(this.#origin, weblog).page)
  }

  #container(objectType: ContainerJson['objectType'], urlId: string, displayName: string, homeUrl: string): ContainerJson {
    return { id: this.#tag(urlId), urlId, objectType, objectTypes: this.#types(objectType), displayName, homeUrl }
  }

  /** The id URIs of the group the asset was published in (none, or one). */
  async #groupIds(type: ObjectType, id: number): Promise<string[]> {
    const groupId = await this.#groupsOf(type).get(id)
    const group = groupId === null ? null : await this.#groups.get(groupId)
    return group ? [this.#tag(group.urlId)] : []
  }

  #urlIdsOf(kind: UrlIdKind): Batched<string> {
    let batched = this.#urlIds.get(kind)
    if (!batched) {
      batched = new Batched((ids) => this.#store.directory.urlIdsOf(kind, ids))
      this.#urlIds.set(kind, batched)
    }
    return batched
  }

  #groupsOf(type: ObjectType): Batched<number> {
    let batched = this.#groupsOfAssets.get(type)
    if (!batched) {
      batched = new Batched((ids) => this.#store.events.groupsOfObjects(type, ids))
      this.#groupsOfAssets.set(type, batched)
    }
    return batched
  }

  #tag(name: string): string {
    return `tag:${this.#domain},2009:${name}`
  }

  #types(type: string): string[] {
    return [this.#tag(type)]
  }
}

function commentPermalink(post: PostJson, commentUrlId: string): string {
  return `${post.permalinkUrl}#comment-${commentUrlId}`
}

function notesContent(item: ListItem): { content: string; textFormat: TextFormat } {
  if (item.notes === null) return { content: '', textFormat: 'html' }
  if (item.notes.format === 'xhtml') return { content: item.notes.value, textFormat: 'html' }
  return { content: escapeHtml(item.notes.value), textFormat: 'html_convert_linebreaks' }
}
