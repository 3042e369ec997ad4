// The shapes that cross the IPC boundary. Plain data only: they are structured-cloned between processes.

/** An account as the renderer sees it: never its secrets. */
export interface AccountSummary {
  id: string
  /**
   * What the person reads in the sidebar: its first weblog and the user, "Melody's Weblog — melody" (before its
   * weblogs are first read, "melody @ 127.0.0.1:4567").
   */
  label: string
  atomBase: string
  username: string
  /** The account's JSON side (activity feed), once connected. */
  json: AccountJsonSummary | null
  /** Why publishing is paused for this account (the server refused its password), or null. */
  paused: string | null
}

export interface AccountJsonSummary {
  jsonBase: string
  /** The person the access token acts for; null until OAuth sign-in completed. */
  username: string | null
}

export interface NewAccount {
  /**
   * Where the Atom interface is: the origin `/t/atom/weblog` hangs off, or the weblog root listing itself
   * (Movable Type's `…/mt-atom.cgi/weblog`). The core finds the listing from either.
   */
  atomBase: string
  username: string
  /** The API password used for WSSE, not the login password. */
  apiPassword: string
}

export interface WeblogsRequest extends AccountRef {
  /** Read them from the server; otherwise as Blogdesk last read them, when it has. */
  refresh: boolean
}

/** A weblog found in the root listing, with the URIs its links announce (absent when the server omits them). */
export interface Weblog {
  title: string
  postUri: string
  feedUri: string | null
  uploadUri: string | null
  categoriesUri: string | null
  homeUrl: string | null
  /**
   * The server keeps a post dated in the future off the weblog's public pages until then (Blogdesk's extension,
   * docs/PROTOCOL.md); elsewhere Blogdesk holds such a post in the outbox until its time.
   */
  schedulesPosts: boolean
}

// ── Accounts ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface AccountRef {
  accountId: string
}

export interface PasswordChange {
  accountId: string
  apiPassword: string
}

/** The JSON side of an account: the key identifies Blogdesk to the service; sign-in then runs OAuth in a window. */
export interface JsonConnection {
  accountId: string
  jsonBase: string
  apiKey: string
  apiSecret: string
}

// ── App status and the outbox ────────────────────────────────────────────────────────────────────────────────────

export interface OutboxCounts {
  /** Queued or being sent. */
  waiting: number
  /** Needing attention or in conflict. */
  needsAttention: number
}

export interface AppStatus {
  /** The computer has a network connection (the OS says so). */
  online: boolean
  outbox: OutboxCounts
  /** Accounts whose publishing is paused until the person signs in again, with why. */
  paused: { accountId: string; reason: string }[]
  /** The state that matters most, for the status bar: offline, then a server out of reach, then a refused sign-in. */
  connection: Connection
  /**
   * The accounts with a problem of their own (unreachable, signed out), in the order of the accounts list; any other
   * account is online, or offline with the computer.
   */
  accounts: AccountConnection[]
}

/**
 * What Blogdesk knows of a connection, from the outcome of its requests: `online`; `unreachable` (the computer is
 * online, the server does not answer); `offline` (this computer has no network); `signed-out` (the server refused
 * the account's sign-in).
 */
export type ConnectionState = 'online' | 'unreachable' | 'offline' | 'signed-out'

export interface Connection {
  state: ConnectionState
  /** The account it is about; null for `online` and `offline` overall. */
  accountId: string | null
  /** The server's host (and port) it is about: the weblog's host; null when no server is in question. */
  host: string | null
  /** Operations of the outbox waiting for that server. */
  waiting: number
  /** When Blogdesk next tries to reach the server (ISO), while it cannot and something waits. */
  nextTryAt: string | null
  /** Why, in words: the last failure to connect, or the server's refusal of the sign-in. */
  reason: string | null
}

export interface AccountConnection {
  accountId: string
  connection: Connection
}

/** What the application menu asks of the window that has the focus. */
export type AppCommand = 'new-post' | 'save' | 'publish' | 'insert-link' | 'find' | 'shortcuts' | 'search'

export type OutboxItemKind = 'post.create' | 'post.update' | 'post.delete' | 'upload' | 'photo' | 'list-item'
export type OutboxItemState = 'queued' | 'sending' | 'done' | 'needs-attention' | 'conflict'

/** One operation of the outbox, in words for the status panel. */
export interface OutboxItem {
  id: number
  accountId: string
  kind: OutboxItemKind
  state: OutboxItemState
  /** What it is about: the post's title, the photo's title, the list item's name. */
  title: string
  /** Where it goes: the weblog's, album's or list's PostURI. */
  queueKey: string
  draftId: string | null
  attempts: number
  /** Why it is waiting or stopped, in words; null when all is well. */
  lastError: string | null
  /** When the next attempt starts (ISO), when it is waiting to retry. */
  nextAttemptAt: string | null
  enqueuedAt: string
  /** Where the result lives on the server, once done (a permalink, a photo's URL). */
  resultUrl: string | null
}

export interface OperationRef {
  operationId: number
}

export interface UploadProgress {
  operationId: number
  /** Bytes sent so far, of `total`. */
  sent: number
  total: number
}

// ── Drafts and the editor ────────────────────────────────────────────────────────────────────────────────────────

export interface WeblogAddress {
  accountId: string
  /** The weblog's PostURI. */
  weblogPostUri: string
}

export type DraftState = 'draft' | 'queued' | 'sending' | 'published' | 'needs-attention' | 'conflict' | 'deleting' | 'deleted'

export interface DraftSummary {
  id: string
  accountId: string
  weblogPostUri: string
  title: string
  /** The first words of the text, for the list. */
  excerpt: string
  state: DraftState
  /** The published post's page, once it has one. */
  permalink: string | null
  lastError: string | null
  updatedAt: string
  /** It stands for a post on the weblog (published): listed with the posts, and its publish action is an Update. */
  live: boolean
  /** A published post's copy holds changes not yet sent to the weblog. */
  unpublishedChanges: boolean
  /** Its publish date is in the future (ISO): a scheduled post. */
  scheduledFor: string | null
  /** Held in this computer's outbox until `scheduledFor`, because the server would publish it at once. */
  heldOnThisComputer: boolean
  /** Categories sent that the weblog did not keep, by its last answer (Movable Type keeps only the first). */
  droppedCategories: string[]
}

/** The server's copy of a post that changed under a draft, kept for the side-by-side view. */
export interface PostVersion {
  title: string
  /** HTML */
  content: string
  categories: string[]
  modified: string | null
}

/** Where a draft stands in its weblog's list, most recently changed first: a page of the list starts after one. */
export interface DraftPosition {
  updatedAt: string
  id: string
}

export interface DraftsPageRequest extends WeblogAddress {
  /** The last draft of the page before, or null for the first page. */
  after: DraftPosition | null
}

/** A page of a weblog's drafts (not the deleted ones), the most recently changed first. */
export interface DraftsPage {
  drafts: DraftSummary[]
  /** Whether drafts changed longer ago follow. */
  more: boolean
}

export interface PostDraft extends DraftSummary {
  /** HTML; images not yet uploaded are `<img src="blogdesk-media:<sha256>">`. */
  content: string
  categories: string[]
  /** The excerpt (Atom summary); empty for none. */
  summary: string
  /** The publish date chosen (ISO, UTC), back-dated or in the future; null: when it is published (or as published). */
  issued: string | null
  /** Set while the draft is in conflict: the server's version. */
  conflict: PostVersion | null
}

export interface DraftRef {
  draftId: string
}

/** A draft deleted but not yet gone: kept in the Trash for 30 days, to be restored or deleted for good. */
export interface TrashedDraft {
  id: string
  accountId: string
  weblogPostUri: string
  title: string
  /** The first words of the text. */
  excerpt: string
  trashedAt: string
}

/** The parts of a draft that changed; the rest stays. */
export interface DraftEdit {
  draftId: string
  title?: string
  content?: string
  categories?: string[]
  summary?: string
  /** W3CDTF in UTC (`2026-12-01T09:00:00Z`), or null for "when it is published". */
  issued?: string | null
}

export interface RevisionSummary {
  id: number
  title: string
  excerpt: string
  words: number
  savedAt: string
  reason: RevisionReason
  /** The revision a restore brought back. */
  restoredFrom: number | null
}

/**
 * Why a revision was made: typing; typing while the weblog's server could not be reached; publishing; a restore;
 * the weblog's own copy (a post opened from it, or kept over ours in a conflict).
 */
export type RevisionReason = 'edited' | 'offline' | 'published' | 'restored' | 'from-weblog'

/** One revision's text, for its preview and its difference from the current text. */
export interface RevisionText {
  id: number
  title: string
  /** HTML */
  content: string
  savedAt: string
  reason: RevisionReason
}

export interface RestoredDraft extends PostDraft {
  /** The revision holding the text the restore replaced: restoring it undoes the restore. */
  replacedRevisionId: number
}

export interface RevisionRef {
  draftId: string
  revisionId: number
}

export type ConflictChoice = 'mine' | 'theirs' | 'merged'

export interface ConflictResolution {
  draftId: string
  choice: ConflictChoice
  /** The text merged by hand; only with `merged`. */
  merged: { title: string; content: string; categories: string[] } | null
}

/** An image copied into Blogdesk for a post, shown from a preview until the post is published. */
export interface LocalImage {
  /** SHA-256 of the image: its reference in a draft is `blogdesk-media:<hash>`. */
  hash: string
  /** A data: URL of a scaled-down copy, for showing in the editor. */
  previewUrl: string
  width: number | null
  height: number | null
}

export interface FileRef {
  /** A path from the file picker or a drop (webUtils.getPathForFile). */
  path: string
}

export interface PastedImage {
  name: string
  type: string
  bytes: Uint8Array
}

export interface MediaRef {
  hash: string
}

// ── Posts on the server and categories ──────────────────────────────────────────────────────────────────────────

export interface PostsPageRequest extends WeblogAddress {
  /** A page's URI from a previous PostsPage (`next`); null for the newest page. */
  pageUri: string | null
}

export interface RemotePostSummary {
  editUri: string
  title: string
  excerpt: string
  permalink: string | null
  issued: string | null
  categories: string[]
  /** The local draft editing this post, if there is one. */
  draftId: string | null
  /** That draft, where it stands: its pending changes, an update on its way. */
  localEdit: DraftSummary | null
}

export interface PostsPage {
  posts: RemotePostSummary[]
  next: string | null
  /** The server could not be reached: this is the page as last seen, fetched at `fetchedAt`. */
  offline: boolean
  fetchedAt: string | null
}

export interface RemotePostRef extends WeblogAddress {
  editUri: string
}

export interface CategoriesRequest extends WeblogAddress {
  /** Ask the server now (the picker opened online), rather than answer from the cache alone. */
  refresh: boolean
}

export interface CategoryListing {
  categories: string[]
  /** When the list was last read from the server; null if never. */
  fetchedAt: string | null
  /** The server could not be reached, or the weblog has no CategoryURI: in words. */
  problem: string | null
}

// ── Photo albums and typed lists ────────────────────────────────────────────────────────────────────────────────

export interface CollectionsRequest extends AccountRef {
  refresh: boolean
}

export type ListType = 'music' | 'book' | 'person' | 'link'

export interface CollectionSummary {
  title: string
  postUri: string
  homeUrl: string | null
  /**
   * For a typed list: what it holds, as the person said when first adding to it (the lists listing does not say);
   * null for a photo album, and for a list nothing was added to from here yet.
   */
  listType: ListType | null
  /** Where the server lists what the album or list holds (its `service.feed`); null when it offers no such feed. */
  feedUri: string | null
}

export interface CollectionListing {
  collections: CollectionSummary[]
  fetchedAt: string | null
  problem: string | null
}

export interface CollectionRef extends AccountRef {
  /** The album's or list's PostURI. */
  collectionUri: string
}

/**
 * What an album or a list holds, newest first. `feed`: everything in it, read from the server's feed of it (or as last
 * read, when `problem` says why it could not be read now). `sent`: the server offers no such feed, so only what
 * Blogdesk sent to it.
 */
export interface CollectionContents<T> {
  source: 'feed' | 'sent'
  entries: T[]
  /** When the feed was read (ISO 8601); null for what was sent, and for a feed never read here. */
  fetchedAt: string | null
  /** Why the feed could not be read now, in words; null when all is well. */
  problem: string | null
}

export interface ListContents extends CollectionContents<ListEntry> {
  /** What the list holds, told by its items' elements in the feed; null when it cannot tell (empty, or no feed). */
  listType: ListType | null
}

/** A photo in an album: from the album's feed, or as the server answered Blogdesk when it was sent. */
export interface AlbumPhoto {
  title: string
  caption: string | null
  /** The photo's public page. */
  url: string | null
  thumbnailUrl: string | null
  takenAt: string | null
}

/** What a photo dropped on an album shows before it is sent, read from its headers on this computer. */
export interface PhotoPreview {
  path: string
  name: string
  type: string
  size: number
  width: number | null
  height: number | null
  takenAt: string | null
  /** "Canon EOS R6", or null when the photo does not say. */
  camera: string | null
  location: { latitude: number; longitude: number } | null
  /** A data: URL of a small thumbnail, turned upright; null for a format this computer cannot decode (HEIC). */
  thumbnailUrl: string | null
}

/** A photo waiting in the outbox for its album, with what it showed when it was dropped (kept across restarts). */
export interface QueuedPhoto {
  operationId: number
  preview: PhotoPreview
}

export interface NewAlbumPhoto extends CollectionRef {
  path: string
  title: string
  caption: string | null
  /** Take the GPS position out before the photo leaves this computer. */
  stripGps: boolean
}

/** An item in a list, from the list's feed or as the server answered Blogdesk when it was added, with what it filled in. */
export interface ListEntry {
  /** The read-only title the server made ("Artist - Song", "Author: Title", a name, a site's title). */
  title: string
  fields: Record<string, string>
  rating: number | null
  notes: string | null
  issued: string | null
}

export interface NewListEntry extends CollectionRef {
  listType: ListType
  /** The type's elements by local name (title, artist, isbn, homepage, url, …). */
  fields: Record<string, string>
  /** 1–5, for music and books. */
  rating: number | null
  notes: string | null
}

// ── Friends and the activity feed ───────────────────────────────────────────────────────────────────────────────

export interface Person {
  urlId: string
  username: string
  displayName: string
  avatarUrl: string
  /** With `{spec}` (e.g. 50si) where the server scales avatars; null otherwise. */
  avatarTemplate: string | null
  profilePageUrl: string
}

export interface FriendSummary extends Person {
  /** The friend's id in Blogdesk (not the server's). */
  id: string
  accountId: string
  /** Events that arrived since the reader last looked. */
  newCount: number
  /** The last look could not reach the service. */
  offline: boolean
  problem: string | null
  /** Images in the friend's events load from their servers; off, they could not track the reader. */
  loadRemoteImages: boolean
}

export interface FriendRef {
  friendId: string
}

export interface RemoteImagesChoice extends FriendRef {
  load: boolean
}

export interface NewFriend extends AccountRef {
  /** A username or urlId. */
  username: string
}

export type ActivityVerb = 'NewAsset' | 'AddedFavorite' | 'AddedNeighbor'

/** One event of a friend's stream, as the feed shows it. */
export interface ActivityEvent {
  urlId: string
  verb: ActivityVerb | string
  published: string
  actor: Person
  object: {
    kind: 'Post' | 'Comment' | 'User' | string
    title: string | null
    excerpt: string | null
    /** HTML as the server sent it: sanitise before it reaches the DOM. */
    html: string | null
    permalink: string | null
    /** For AddedNeighbor: the person added. */
    person: Person | null
    /** For a photo: its thumbnail (or the photo, when the server made no thumbnail). */
    imageUrl: string | null
  }
}

export interface FeedState {
  friend: FriendSummary
  /** Cached events, newest first; read them with feed:events. */
  total: number
  newCount: number
  hasOlder: boolean
  /** What is shown is the cache: the service could not be reached. */
  offline: boolean
  problem: string | null
  /** The newest cached event's urlId (null when none): the reader has seen up to it once it is shown. */
  newestUrlId: string | null
}

export interface FeedSlice extends FriendRef {
  /** From the newest cached event. */
  offset: number
  limit: number
}

export interface SeenRef extends FriendRef {
  /** The newest event the reader has been shown: events above it stay new. Without it, everything is seen. */
  upTo?: string
}

// ── Weblog settings (kept on this computer) ─────────────────────────────────────────────────────────────────────

/** The widths, in pixels, an image may be given or capped at: from a thumbnail to a large print. */
export const IMAGE_WIDTH_LIMITS = { min: 50, max: 8000 } as const

export interface WeblogImageSettings {
  /** The widest, in pixels, an image of a post is sent at: wider ones are scaled down before they are uploaded. */
  maxImageWidth: number
}

export interface WeblogSettingsEdit extends WeblogAddress, WeblogImageSettings {}

export interface WeblogLookRequest extends WeblogAddress {
  /** Read the weblog's public page now, even when a recent copy is cached (the person's "Read again"). */
  refresh: boolean
}

/** One element of the weblog's page around a post: its tag, id and classes, which its stylesheets select on. */
export interface FrameElement {
  tag: string
  id: string | null
  className: string | null
}

/**
 * Where a post sits on the weblog's page, as paths of elements: `entry` from the body down to the element holding
 * one post's title and text, then `title` and `content` each from there down to the element holding that part.
 */
export interface PostFrame {
  root: FrameElement
  body: FrameElement
  entry: FrameElement[]
  /** Empty when the page showed no title the post could be matched with: the preview puts a plain heading. */
  title: FrameElement[]
  content: FrameElement[]
}

export interface WeblogStyle {
  /** Every stylesheet of the page in order, linked ones read by main and inlined: the preview needs no network. */
  css: string
  frame: PostFrame
  /** The page the look was read from. */
  pageUrl: string
}

export interface WeblogLook {
  /** The weblog's own look; null when the preview must use a neutral reading style (`note` says why). */
  style: WeblogStyle | null
  /** Words for the person: why the style is neutral, or that an older copy is shown; null when all is well. */
  note: string | null
  /** When the look was read from the weblog (ISO 8601); null when it never was. */
  fetchedAt: string | null
}

// ── Search across an account's drafts and posts ─────────────────────────────────────────────────────────────────

export interface SearchRequest {
  accountId: string
  /** What the person typed: plain words, the last one matched as a prefix while it is being typed. */
  query: string
}

/** Text with the words that matched marked, for highlighting without markup. */
export type MarkedText = { text: string; match: boolean }[]

export interface SearchHit {
  /** A draft never published, or a post (published, perhaps with a local draft editing it). */
  kind: 'draft' | 'post'
  accountId: string
  weblogPostUri: string
  /** The draft to open; null for a post not opened here yet (posts:edit opens it). */
  draftId: string | null
  editUri: string | null
  state: DraftState | null
  title: MarkedText
  /** The words around the best match in the text; empty when only the title matched. */
  snippet: MarkedText
  /** A draft's last change, a post's publication date. */
  at: string | null
}

export interface SearchResults {
  hits: SearchHit[]
  /** Whether more matched than were answered: more words narrow it. */
  more: boolean
}
