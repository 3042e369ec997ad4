// The JSON documents the service sends (spec §2, docs/PROTOCOL.md "JSON interface"). Field order follows the spec's
// tables. Where the spec shows `null` the type says so; every other field is always present.
import type { ApplicationUrls } from '../auth/oauth-urls'

/** What every object carries: `id` is `tag:<domain>,2009:<urlId>`, `objectTypes` the one `tag:<domain>,2009:<Type>`. */
export interface Identified {
  id: string
  urlId: string
  objectType: string
  objectTypes: string[]
}

/** An image; `urlTemplate` (with `{spec}`, e.g. 50si) is given when the service can scale it. */
export interface ImageLink {
  width: number
  height: number
  url: string
  urlTemplate?: string
}

export interface UserJson extends Identified {
  objectType: 'User'
  displayName: string
  preferredUsername: string
  profilePageUrl: string
  aboutMe: string | null
  location: string | null
  interests: string[]
  avatarLink: ImageLink
}

export interface GroupJson {
  urlId: string
  objectType: 'Group'
  objectTypes: string[]
  id: string
  siteUrl: string
  displayName: string
}

/** Where an asset lives: a weblog (`Blog`), a photo album (`Album`) or a typed list (`List`). */
export interface ContainerJson extends Identified {
  objectType: 'Blog' | 'Album' | 'List'
  displayName: string
  homeUrl: string
}

/** A pointer to an asset (a comment's `root` and `inReplyTo`): `href` is the path of the asset's own JSON. */
export interface AssetRefJson extends Identified {
  href: string
  type: 'application/json'
  permalinkUrl: string
  /** A post is named by its title, a comment by an excerpt. */
  title?: string
  excerpt?: string
  author: UserJson
}

/** `html`: markup; `html_convert_linebreaks`: markup (or escaped text) whose line breaks become paragraphs. */
export type TextFormat = 'html' | 'html_convert_linebreaks'

interface AssetJson extends Identified {
  published: string
  permalinkUrl: string
  author: UserJson
  container: ContainerJson
  /** Id URIs of the groups the asset was published in. */
  groups: string[]
  commentCount: number
  favoriteCount: number
}

export interface PostJson extends AssetJson {
  objectType: 'Post'
  title: string
  content: string
  /** Sanitised HTML, safe to show once the client's own sanitiser has seen it too. */
  renderedContent: string
  excerpt: string
  description: string
  filename: string
  shortUrl: string
  textFormat: TextFormat
  categories: string[]
  reblogCount: number
  hasExtendedContent: boolean
  embeddedAudioLinks: { url: string }[]
  embeddedImageLinks: { url: string; width?: number; height?: number }[]
  embeddedVideoLinks: { url: string }[]
}

export interface CommentJson extends AssetJson {
  objectType: 'Comment'
  content: string
  title: null
  description: null
  textFormat: TextFormat
  commenter: { href: string; name: string; avatarLink: ImageLink }
  root: AssetRefJson
  /** The comment answered, or the post for a comment on the post itself. */
  inReplyTo: AssetRefJson
}

/** A photo of an album (our decision: TypePad's Photo asset, plus the thumbnail the service makes). */
export interface PhotoJson extends AssetJson {
  objectType: 'Photo'
  title: string
  content: string
  description: string | null
  textFormat: TextFormat
  imageLink: ImageLink
  thumbnailLink: ImageLink
}

/** A typed list's item (our decision): objectType Song, Book, Person or Link after the list's type. */
export interface ListItemJson extends AssetJson {
  objectType: 'Song' | 'Book' | 'Person' | 'Link'
  /** Computed as on the Atom side: "Artist - Song", "Author: Title", the person's name, the site's title. */
  title: string
  content: string
  textFormat: TextFormat
  rating: number | null
  /** The item's details by their Atom element names (a person's email address is never shown). */
  details: Record<string, string>
  /** Links only: the address the item points at. */
  targetUrl?: string
}

export type EventObjectJson = PostJson | CommentJson | PhotoJson | ListItemJson | UserJson

export interface EventJson {
  id: string
  urlId: string
  actor: UserJson
  object: EventObjectJson
  published: string
  verb: string
  verbs: string[]
}

export interface StreamJson<T> {
  entries: T[]
  estimatedTotalResults: number | null
  moreResultsToken: string | null
  totalResults: number | null
}

export interface ListJson<T> {
  totalResults: number
  entries: T[]
}

/** Spec §2.2: the application's identity, and the URLs of its OAuth steps (auth/oauth-urls.ts). */
export interface ApplicationJson extends ApplicationUrls {
  id: string
  objectType: 'Application'
  objectTypes: string[]
  name: string
}

export interface ApiKeyJson {
  apiKey: string
  owner: ApplicationJson
}

export interface AuthTokenJson {
  authToken: string
  /** Deprecated: the user's first group, or null for someone in no group. */
  targetObject: GroupJson | null
}

export interface ErrorJson {
  error: { status: number; message: string }
}
