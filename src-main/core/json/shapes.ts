// The JSON interface's documents as Blogdesk uses them (spec §2; docs/PROTOCOL.md "JSON interface"): only the fields
// the app shows or follows, each checked at runtime by readers.ts. A field the spec shows as null may be null here; an
// ImageLink's size is null when a server leaves it out.

export interface ImageLink {
  url: string
  width: number | null
  height: number | null
  /** With `{spec}` (e.g. 50si) where the server can scale the image. */
  urlTemplate: string | null
}

export interface JsonUser {
  objectType: 'User'
  id: string
  urlId: string
  displayName: string
  preferredUsername: string
  profilePageUrl: string
  aboutMe: string | null
  location: string | null
  avatarLink: ImageLink
}

export interface JsonGroup {
  id: string
  urlId: string
  displayName: string
  siteUrl: string
}

/** Where an asset lives: a weblog (Blog), a photo album (Album), a typed list (List). */
export interface JsonContainer {
  objectType: string
  urlId: string
  displayName: string
  homeUrl: string
}

/** `html`: markup; `html_convert_linebreaks`: markup or text whose line breaks become paragraphs. */
export type TextFormat = 'html' | 'html_convert_linebreaks'

interface AssetFields {
  id: string
  urlId: string
  published: string
  permalinkUrl: string
  author: JsonUser
  container: JsonContainer
  commentCount: number
  favoriteCount: number
}

export interface JsonPost extends AssetFields {
  objectType: 'Post'
  title: string
  excerpt: string
  /** HTML; sanitised by the server, and again by the renderer before it reaches the DOM. */
  renderedContent: string
  embeddedImageLinks: ImageLink[]
}

/** What a comment answers: a post (named by its title) or another comment (by an excerpt). */
export interface JsonAssetRef {
  objectType: string
  urlId: string
  permalinkUrl: string
  title: string | null
  excerpt: string | null
  author: JsonUser
}

export interface JsonComment extends AssetFields {
  objectType: 'Comment'
  content: string
  textFormat: TextFormat
  root: JsonAssetRef
  inReplyTo: JsonAssetRef
}

export interface JsonPhoto extends AssetFields {
  objectType: 'Photo'
  title: string
  description: string | null
  imageLink: ImageLink
  thumbnailLink: ImageLink | null
}

export const LIST_ITEM_TYPES = ['Song', 'Book', 'Person', 'Link'] as const

export interface JsonListItem extends AssetFields {
  objectType: (typeof LIST_ITEM_TYPES)[number]
  title: string
  content: string
  textFormat: TextFormat
  rating: number | null
  /** Links only: the address the item points at. */
  targetUrl: string | null
}

export type JsonEventObject = JsonPost | JsonComment | JsonPhoto | JsonListItem | JsonUser

export interface JsonEvent {
  id: string
  urlId: string
  /** The verb's name: NewAsset, AddedFavorite, AddedNeighbor, … (the last segment of the spec's tag URI). */
  verb: string
  published: string
  actor: JsonUser
  object: JsonEventObject
}

/** A page of a stream, paged by moreResultsToken. */
export interface Stream<T> {
  entries: T[]
  /** Continues after this page; null on the last one. */
  moreResultsToken: string | null
  totalResults: number | null
  estimatedTotalResults: number | null
}

/** A page of a list, paged by start-index. */
export interface List<T> {
  entries: T[]
  totalResults: number
}

/** The application an API key belongs to, with its OAuth endpoints: follow them, never build them. */
export interface JsonApplication {
  id: string
  name: string
  oauthRequestTokenUrl: string
  oauthAuthorizationUrl: string
  oauthAccessTokenUrl: string
  oauthIdentificationUrl: string
}

export interface JsonApiKey {
  apiKey: string
  owner: JsonApplication
}

export interface JsonAuthToken {
  authToken: string
  /** The user's first group (deprecated in the spec), or null. */
  targetObject: JsonGroup | null
}
