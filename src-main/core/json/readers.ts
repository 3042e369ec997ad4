// Runtime checks for the JSON interface's answers: each reader takes what JSON.parse gave and returns the typed
// shape (shapes.ts) holding only the fields Blogdesk uses, or throws a ShapeError naming the first field that does
// not fit. Addresses must be absolute http(s) URLs, since the app shows them and opens them.
import { formatW3cDate, parseW3cDate } from '../../../src-protocol'
import {
  LIST_ITEM_TYPES,
  type ImageLink,
  type JsonApiKey,
  type JsonApplication,
  type JsonAssetRef,
  type JsonAuthToken,
  type JsonComment,
  type JsonContainer,
  type JsonEvent,
  type JsonEventObject,
  type JsonGroup,
  type JsonListItem,
  type JsonPhoto,
  type JsonPost,
  type JsonUser,
  type List,
  type Stream,
  type TextFormat,
} from './shapes'

/** Where an answer does not fit: `path` is like `response.entries[3].actor.avatarLink.url`. */
export class ShapeError extends Error {
  readonly path: string

  constructor(path: string, problem: string) {
    super(`${path} ${problem}`)
    this.name = 'ShapeError'
    this.path = path
  }
}

export type Reader<T> = (value: unknown, path: string) => T

/** The name of the answer's root in a ShapeError's path. */
export const ROOT = 'response'

const MAX_TEXT = 1_000_000

const text: Reader<string> = (value, path) => {
  if (value === undefined) throw new ShapeError(path, 'is missing')
  if (typeof value !== 'string') throw new ShapeError(path, `should be text, not ${describe(value)}`)
  if (value.length > MAX_TEXT) throw new ShapeError(path, `is ${value.length} characters long, too long to be right`)
  return value
}

/** An identifier: text that is not empty. */
const identifier: Reader<string> = (value, path) => {
  const id = text(value, path)
  if (id.trim() === '' || id.length > 512) throw new ShapeError(path, 'should be an identifier, but is empty or far too long')
  return id
}

const httpUrl: Reader<string> = (value, path) => {
  const address = text(value, path)
  let url: URL
  try {
    url = new URL(address)
  } catch {
    throw new ShapeError(path, `should be an address, not "${clip(address)}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ShapeError(path, `should be an http or https address, not "${clip(address)}"`)
  }
  return address
}

/** A W3C-DTF timestamp, returned as Blogdesk writes them: UTC, whole seconds. */
const date: Reader<string> = (value, path) => {
  const written = text(value, path)
  const parsed = parseW3cDate(written)
  if (!parsed) throw new ShapeError(path, `should be a date such as 2009-06-01T12:00:00Z, not "${clip(written)}"`)
  return formatW3cDate(parsed)
}

const count: Reader<number> = (value, path) => {
  if (value === undefined) throw new ShapeError(path, 'is missing')
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ShapeError(path, `should be a whole number of at least 0, not ${describe(value)}`)
  }
  return value
}

/** Absent or null is null; anything else must fit `read`. */
function nullable<T>(read: Reader<T>): Reader<T | null> {
  return (value, path) => (value === undefined || value === null ? null : read(value, path))
}

function listOf<T>(read: Reader<T>): Reader<T[]> {
  return (value, path) => {
    if (value === undefined) throw new ShapeError(path, 'is missing')
    if (!Array.isArray(value)) throw new ShapeError(path, `should be a list, not ${describe(value)}`)
    return value.map((item, index) => read(item, `${path}[${index}]`))
  }
}

function oneOf<const T extends string>(choices: readonly T[]): Reader<T> {
  return (value, path) => {
    const given = text(value, path)
    const known = choices.find((choice) => choice === given)
    if (known === undefined) throw new ShapeError(path, `is "${clip(given)}", where Blogdesk knows ${choices.join(', ')}`)
    return known
  }
}

/** An object whose fields are read by `readers`; fields not named are left out of the result. */
function record<T>(readers: { [K in keyof T]-?: Reader<T[K]> }): Reader<T> {
  return (value, path) => {
    const fields = objectAt(value, path)
    const result = {} as T
    for (const name of Object.keys(readers) as (keyof T & string)[]) {
      result[name] = readers[name](fields[name], `${path}.${name}`)
    }
    return result
  }
}

function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined) throw new ShapeError(path, 'is missing')
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ShapeError(path, `should be an object, not ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

function literal<const T extends string>(expected: T): Reader<T> {
  return oneOf([expected])
}

const size = nullable(count)

const readImageLink: Reader<ImageLink> = record<ImageLink>({
  url: httpUrl,
  width: size,
  height: size,
  urlTemplate: nullable(text),
})

export const readUser: Reader<JsonUser> = record<JsonUser>({
  objectType: literal('User'),
  id: identifier,
  urlId: identifier,
  displayName: text,
  preferredUsername: identifier,
  profilePageUrl: httpUrl,
  aboutMe: nullable(text),
  location: nullable(text),
  avatarLink: readImageLink,
})

const readGroup: Reader<JsonGroup> = record<JsonGroup>({
  id: identifier,
  urlId: identifier,
  displayName: text,
  siteUrl: httpUrl,
})

const readContainer = record<JsonContainer>({
  objectType: identifier,
  urlId: identifier,
  displayName: text,
  homeUrl: httpUrl,
})

const readTextFormat: Reader<TextFormat> = oneOf(['html', 'html_convert_linebreaks'])

const assetFields = {
  id: identifier,
  urlId: identifier,
  published: date,
  permalinkUrl: httpUrl,
  author: readUser,
  container: readContainer,
  commentCount: count,
  favoriteCount: count,
}

const readPost = record<JsonPost>({
  ...assetFields,
  objectType: literal('Post'),
  title: text,
  excerpt: text,
  renderedContent: text,
  embeddedImageLinks: listOf(readImageLink),
})

const readAssetRef = record<JsonAssetRef>({
  objectType: identifier,
  urlId: identifier,
  permalinkUrl: httpUrl,
  title: nullable(text),
  excerpt: nullable(text),
  author: readUser,
})

const readComment = record<JsonComment>({
  ...assetFields,
  objectType: literal('Comment'),
  content: text,
  textFormat: readTextFormat,
  root: readAssetRef,
  inReplyTo: readAssetRef,
})

const readPhoto = record<JsonPhoto>({
  ...assetFields,
  objectType: literal('Photo'),
  title: text,
  description: nullable(text),
  imageLink: readImageLink,
  thumbnailLink: nullable(readImageLink),
})

const rating: Reader<number | null> = nullable((value, path) => {
  const stars = count(value, path)
  if (stars < 1 || stars > 5) throw new ShapeError(path, `should be a rating from 1 to 5, not ${stars}`)
  return stars
})

const readListItem = record<JsonListItem>({
  ...assetFields,
  objectType: oneOf(LIST_ITEM_TYPES),
  title: text,
  content: text,
  textFormat: readTextFormat,
  rating,
  targetUrl: nullable(httpUrl),
})

const OBJECT_READERS: Record<JsonEventObject['objectType'], Reader<JsonEventObject>> = {
  Post: readPost,
  Comment: readComment,
  Photo: readPhoto,
  Song: readListItem,
  Book: readListItem,
  Person: readListItem,
  Link: readListItem,
  User: readUser,
}

const readEventObject: Reader<JsonEventObject> = (value, path) => {
  const objectType = oneOf(Object.keys(OBJECT_READERS) as JsonEventObject['objectType'][])(
    objectAt(value, path)['objectType'],
    `${path}.objectType`,
  )
  return OBJECT_READERS[objectType](value, path)
}

/** `verb` as our service sends it, or else the last segment of the spec's first `verbs` tag URI. */
const readVerb: Reader<string> = (value, path) => {
  const fields = objectAt(value, path)
  if (fields['verb'] !== undefined) return identifier(fields['verb'], `${path}.verb`)
  const [first] = listOf(identifier)(fields['verbs'], `${path}.verbs`)
  if (first === undefined) throw new ShapeError(`${path}.verbs`, 'is empty, so the event does not say what happened')
  return first.slice(first.lastIndexOf(':') + 1)
}

export const readEvent: Reader<JsonEvent> = (value, path) => {
  const fields = objectAt(value, path)
  return {
    id: identifier(fields['id'], `${path}.id`),
    urlId: identifier(fields['urlId'], `${path}.urlId`),
    verb: readVerb(value, path),
    published: date(fields['published'], `${path}.published`),
    actor: readUser(fields['actor'], `${path}.actor`),
    object: readEventObject(fields['object'], `${path}.object`),
  }
}

export function readStream<T>(readEntry: Reader<T>): Reader<Stream<T>> {
  return record<Stream<T>>({
    entries: listOf(readEntry),
    moreResultsToken: nullable(identifier),
    totalResults: nullable(count),
    estimatedTotalResults: nullable(count),
  })
}

export function readList<T>(readEntry: Reader<T>): Reader<List<T>> {
  return record<List<T>>({ entries: listOf(readEntry), totalResults: count })
}

const readApplication = record<JsonApplication>({
  id: identifier,
  name: text,
  oauthRequestTokenUrl: httpUrl,
  oauthAuthorizationUrl: httpUrl,
  oauthAccessTokenUrl: httpUrl,
  oauthIdentificationUrl: httpUrl,
})

export const readApiKey: Reader<JsonApiKey> = record<JsonApiKey>({ apiKey: identifier, owner: readApplication })

export const readAuthToken: Reader<JsonAuthToken> = record<JsonAuthToken>({
  authToken: identifier,
  targetObject: nullable(readGroup),
})

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return `the text "${clip(value)}"`
  if (typeof value === 'object') return 'an object'
  return `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}
