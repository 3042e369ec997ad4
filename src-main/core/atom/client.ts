// The Atom 0.3 client: weblog posts, categories, uploads, photos and list items, on any server of the family (ours,
// Movable Type's mt-atom.cgi, TypePad's). It follows the links servers announce and never builds an address, except
// Movable Type's `offset=` pages for feeds without paging links (paging.ts). Every request is signed with WSSE when
// it is sent, and every failure is a RequestFailure whose kind says what to do next (failure.ts).
import { open, type FileHandle } from 'node:fs/promises'
import exifr from 'exifr'
import {
  NS,
  readCategories,
  readEntry,
  readFeed,
  writeEntry,
  XmlError,
  type AtomEntry,
  type EntryToWrite,
  type ExtensionElement,
  type WsseCredentials,
} from '../../../src-protocol'
import { CoreError } from '../errors'
import { collectionsFromLinks, readRootListing } from './discovery'
import { hostOf, RequestFailure, unusableAnswer } from './failure'
import { postFileEntry } from './file-post'
import { gpsRemovalPatches, type Patch } from './gps'
import { atomRequest, DEFAULT_TIMEOUT_MS, type AtomRequest, type AtomResponse, type Fetch } from './http'
import { OffsetPaging } from './paging'
import { alternateOf, editLinkOf, entryOfPost, remotePostOf, type PostToSend, type RemotePost } from './posts'

export interface FeedPage {
  /** Newest first, as the server sends them; entries without an EditURI cannot be worked with and are left out. */
  posts: RemotePost[]
  next: string | null
  prev: string | null
}

export interface AtomClientOptions {
  /** Electron's net.fetch in the app (system proxy and certificates); Node's fetch in tests. */
  fetch: Fetch
  /** Asked before every request, so a changed password is used at once and none is kept here. */
  credentials: () => Promise<WsseCredentials>
  /** How long a request may wait for the server (for uploads: how long the connection may stall). */
  timeoutMs?: number
}

export interface FileUpload {
  path: string
  /** The file's name on the server (the entry's title). */
  name: string
  /** Its media type. */
  type: string
}

export interface PhotoUpload {
  path: string
  title: string
  summary?: string | null
  type: string
  filename?: string | null
  /** Take the GPS position out of the photo's metadata before it leaves this computer. */
  stripGps?: boolean
}

export interface ListItemToSend {
  /** The list type's namespace (NS.song, NS.book, NS.person, NS.link). */
  ns: string
  /** Its elements by local name: title, artist, isbn, homepage, url, … */
  fields: Record<string, string>
  /** 1–5, for music and books. */
  rating?: number | null
  /** Notes or a review; for people, a one-line biography. */
  notes?: string | null
}

export interface SendOptions {
  /** Sent as Idempotency-Key: the same key for a retry of the same request, a new one for a new request. */
  idempotencyKey: string
}

export interface FileSendOptions extends SendOptions {
  /** File bytes sent so far, out of the file's size. */
  onProgress?: (sent: number, total: number) => void
}

export interface Collection {
  title: string
  postUri: string
  homeUrl: string | null
  /** Its `service.feed`, where the server lists what it holds (Blogdesk's service); null when it offers none. */
  feedUri: string | null
}

export class AtomClient {
  readonly #fetch: Fetch
  readonly #credentials: () => Promise<WsseCredentials>
  readonly #timeoutMs: number
  readonly #paging = new OffsetPaging()

  constructor(options: AtomClientOptions) {
    this.#fetch = options.fetch
    this.#credentials = options.credentials
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  /** One page of a weblog's posts; next and prev from the feed's links, or Movable Type's offset pages. */
  async feedPage(uri: string): Promise<FeedPage> {
    const { entries, next, prev } = await this.entriesPage(uri)
    const posts = entries.flatMap((entry) => {
      const editUri = editLinkOf(entry.links)
      return editUri === null ? [] : [remotePostOf(entry, editUri)]
    })
    return { posts, next, prev }
  }

  /** One page of any feed (a weblog's, an album's, a list's) as entries, with the neighbouring pages' addresses. */
  async entriesPage(uri: string): Promise<{ entries: AtomEntry[]; next: string | null; prev: string | null }> {
    const response = await this.#request({ url: uri })
    const feed = readDocument(response, 'an Atom feed', (xml) => readFeed(xml, { baseUrl: response.url }))
    const linked = (rel: string) => feed.links.find((link) => link.rel === rel)?.href ?? null
    const next = linked('next')
    const prev = linked('prev') ?? linked('previous')
    if (next !== null || prev !== null) return { entries: feed.entries, next, prev }
    return { entries: feed.entries, ...this.#paging.links(response.url, feed.entries.length) }
  }

  /** The category names of a weblog's CategoryURI, in the server's order. */
  async categories(uri: string): Promise<string[]> {
    const response = await this.#request({ url: uri })
    return readDocument(response, 'a list of categories', readCategories)
  }

  /** Creates a post; a repeat with the same key gets the first answer back from servers that honour the key. */
  async createPost(postUri: string, post: PostToSend, options: SendOptions): Promise<RemotePost> {
    const response = await this.#request({
      url: postUri,
      method: 'POST',
      body: writeEntry(entryOfPost(post)),
      idempotencyKey: options.idempotencyKey,
    })
    const entry = entryOrNull(response)
    const editUri = (entry && editLinkOf(entry.links)) ?? response.location
    if (entry && editUri) return remotePostOf(entry, editUri)
    // 201 without the entry (or without a usable one): the Location is the post.
    if (editUri) return this.getPost(editUri)
    if (entry || response.body.trim() === '') {
      throw new RequestFailure(
        'outcome-unknown',
        `${hostOf(postUri)} accepted the post (HTTP ${response.status}) but did not say where it is; look for it in the weblog before sending it again.`,
        { status: response.status },
      )
    }
    throw unusableAnswer(response, 'the Atom entry of the new post')
  }

  async getPost(editUri: string): Promise<RemotePost> {
    const response = await this.#request({ url: editUri })
    return remotePostOf(readDocument(response, 'an Atom entry', (xml) => readEntry(xml, { baseUrl: response.url })), editUri)
  }

  /** Replaces the post; the answer is the server's copy (read again when the server answers without it). */
  async updatePost(editUri: string, post: PostToSend): Promise<RemotePost> {
    const response = await this.#request({ url: editUri, method: 'PUT', body: writeEntry(entryOfPost(post)) })
    const entry = entryOrNull(response)
    return entry ? remotePostOf(entry, editUri) : this.getPost(editUri)
  }

  /** Deletes the post; one that is not there any more counts as deleted. */
  async deletePost(editUri: string): Promise<'deleted' | 'already-gone'> {
    try {
      await this.#request({ url: editUri, method: 'DELETE' })
      return 'deleted'
    } catch (error) {
      if (error instanceof RequestFailure && error.kind === 'not-found') return 'already-gone'
      throw error
    }
  }

  /** Sends a file to a weblog's UploadURI; resolves with its public address. */
  async upload(uploadUri: string, file: FileUpload, options: FileSendOptions): Promise<{ url: string }> {
    const response = await this.#postFile(uploadUri, { title: file.name }, file, false, options)
    const entry = entryOrNull(response)
    const url = (entry && alternateOf(entry.links)) ?? response.location
    if (url === null) throw unusableAnswer(response, 'the address of the uploaded file')
    return { url }
  }

  /** Posts a photo to an album's PostURI. Whatever the server's answer leaves out is null: the photo is there. */
  async postPhoto(
    albumUri: string,
    photo: PhotoUpload,
    options: FileSendOptions,
  ): Promise<{ id: string | null; url: string | null; thumbnail: string | null; taken: string | null }> {
    const extensions: ExtensionElement[] = photo.filename ? [{ ns: NS.photo, name: 'filename', text: photo.filename }] : []
    const entry: EntryToWrite = { title: photo.title, summary: photo.summary ?? null, extensions }
    const file = { path: photo.path, name: photo.filename || photo.title, type: photo.type }
    const response = await this.#postFile(albumUri, entry, file, photo.stripGps ?? false, options)
    const answer = entryOrNull(response)
    return {
      id: answer?.id ?? null,
      url: (answer && alternateOf(answer.links)) ?? response.location,
      thumbnail: (answer && extensionText(answer, NS.photo, 'thumbnail')) ?? null,
      taken: (answer && extensionText(answer, NS.photo, 'taken')) ?? null,
    }
  }

  /** Adds an item to a typed list; the answer carries what the server looked up and the title it made. */
  async postListItem(
    listUri: string,
    item: ListItemToSend,
    options: SendOptions,
  ): Promise<{ title: string; fields: Record<string, string> }> {
    const response = await this.#request({
      url: listUri,
      method: 'POST',
      body: writeEntry(entryOfListItem(item)),
      idempotencyKey: options.idempotencyKey,
    })
    let entry = entryOrNull(response)
    if (entry === null && response.location !== null) {
      const created = await this.#request({ url: response.location })
      entry = readDocument(created, 'an Atom entry', (xml) => readEntry(xml, { baseUrl: created.url }))
    }
    if (entry === null) throw unusableAnswer(response, 'the Atom entry of the new item')
    const fields: Record<string, string> = {}
    for (const element of entry.extensions) if (element.ns === item.ns) fields[element.name] = element.text.trim()
    return { title: entry.title ?? '', fields }
  }

  /** The collections of a gallery or lists root listing (GET /t/atom/gallery, /t/atom/lists). */
  async listCollections(rootUri: string): Promise<Collection[]> {
    const links = await readRootListing(this.#fetch, rootUri, await this.#credentials(), 'an Atom listing', this.#timeoutMs)
    return collectionsFromLinks(links, 'Untitled').map(({ title, hrefs }) => ({
      title,
      postUri: hrefs.get('service.post')!,
      homeUrl: hrefs.get('alternate') ?? null,
      feedUri: hrefs.get('service.feed') ?? null,
    }))
  }

  async #request(request: Omit<AtomRequest, 'credentials' | 'timeoutMs'>): Promise<AtomResponse> {
    return atomRequest(this.#fetch, { ...request, credentials: await this.#credentials(), timeoutMs: this.#timeoutMs })
  }

  /** POSTs `entry` with the file as its base64 content, streamed from disk. */
  async #postFile(
    uri: string,
    entry: EntryToWrite,
    file: { path: string; name: string; type: string },
    stripGps: boolean,
    options: FileSendOptions,
  ): Promise<AtomResponse> {
    const { entryHead, entryTail } = entryAroundContent({ ...entry, content: { mode: 'base64', type: file.type, value: '' } })
    const handle = await openFile(file)
    try {
      const size = (await handle.stat()).size
      const patches = stripGps ? await gpsRemoval(handle, size, file) : []
      return await postFileEntry({
        url: uri,
        credentials: await this.#credentials(),
        idempotencyKey: options.idempotencyKey,
        entryHead,
        entryTail,
        file: { handle, size, patches, name: file.name },
        timeoutMs: this.#timeoutMs,
        onProgress: options.onProgress,
      })
    } finally {
      await handle.close()
    }
  }
}

/** The entry document split where its (empty) base64 content goes: `</` appears only in markup, never in text. */
function entryAroundContent(entry: EntryToWrite): { entryHead: string; entryTail: string } {
  const xml = writeEntry(entry)
  const at = xml.indexOf('></content>') + 1
  return { entryHead: xml.slice(0, at), entryTail: xml.slice(at) }
}

async function openFile(file: { path: string; name: string }): Promise<FileHandle> {
  try {
    return await open(file.path, 'r')
  } catch (error) {
    throw new CoreError(
      'not-found',
      `The file "${file.name}" could not be opened (${(error as NodeJS.ErrnoException).code ?? String(error)}); it may have been moved or deleted. Add it again.`,
      { cause: error },
    )
  }
}

/** The patches that take the position out of a JPEG; other formats may go only when they carry no position. */
async function gpsRemoval(handle: FileHandle, size: number, file: { path: string; name: string; type: string }): Promise<Patch[]> {
  const patches = await gpsRemovalPatches(handle, size)
  if (patches !== null) return patches
  const position: unknown = await exifr.gps(file.path).catch(() => undefined)
  if (position) {
    throw new CoreError(
      'rejected',
      `"${file.name}" (${file.type}) holds the place where it was taken, and Blogdesk can take that out only of JPEG photos. Export it as JPEG, or send it with its location.`,
    )
  }
  return []
}

function entryOfListItem(item: ListItemToSend): EntryToWrite {
  const extensions: ExtensionElement[] = Object.entries(item.fields).map(([name, text]) => ({ ns: item.ns, name, text }))
  if (item.rating != null) extensions.push({ ns: NS.rvw, name: 'value', text: String(item.rating) })
  const isPerson = item.ns === NS.person
  if (isPerson && item.notes) extensions.push({ ns: NS.bio, name: 'olb', text: item.notes })
  return {
    // The service computes an item's title and ignores this one (spec §2.7), but an entry has one.
    title: '',
    content: !isPerson && item.notes ? { mode: 'escaped', type: 'text/plain', value: item.notes } : null,
    extensions,
  }
}

/** Parses an answer's body with `read`; a body that is not what was asked for is the server's refusal to say. */
function readDocument<T>(response: AtomResponse, expected: string, read: (xml: string) => T): T {
  try {
    return read(response.body)
  } catch (error) {
    if (!(error instanceof XmlError)) throw error
    throw unusableAnswer(response, expected, error.message)
  }
}

/** The entry a 2xx answer carries, or null when its body is empty or not an entry. */
function entryOrNull(response: AtomResponse): AtomEntry | null {
  if (response.body.trim() === '') return null
  try {
    return readEntry(response.body, { baseUrl: response.url })
  } catch (error) {
    if (error instanceof XmlError) return null
    throw error
  }
}

function extensionText(entry: AtomEntry, ns: string, name: string): string | null {
  return entry.extensions.find((element) => element.ns === ns && element.name === name)?.text.trim() || null
}
