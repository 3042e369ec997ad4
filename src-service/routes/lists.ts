// Typed lists' Atom interface (spec §4.2): the root listing of a user's lists, PostURI create (lookups fill in
// what the client left out), the item's EditURI read and, as an extension, the list's items as a paged feed. A create is one transaction with its NewAsset event and
// its idempotency record, so a refused or failed request leaves nothing behind.
import { ATOM_MEDIA_TYPE, writeEntry, writeLinkFeed } from '../../src-protocol'
import type { AuthenticatedHandler } from '../auth/wsse'
import { completeItem, type Lookups } from '../lookup'
import { registerListPages } from '../public/lists'
import type { List, ListItem, Store, User } from '../store'
import { readAtomBody } from './body'
import { entryFromBody } from './entries'
import { registerPagedFeed, type PagedFeed } from './feed-pages'
import { draftFromEntry, entryOfItem, itemAddresses, listAddresses } from './lists-entry'
import { ownedList } from './ownership'
import { idOf } from './posts-entry'
import { idempotentRequest, remember, replay } from './posts-idempotency'
import { atomReply, HttpError, type Handler, type Reply } from './reply'
import type { Router } from './router'

/** A list item is a few short details and notes; anything near this size is not one. */
const ITEM_MAX_BYTES = 1024 * 1024

/** Registers the lists' Atom routes (behind WSSE; list feeds when `feeds`) and their public pages. */
export function registerListRoutes(
  router: Router,
  store: Store,
  withWsse: (handler: AuthenticatedHandler) => Handler,
  lookups: Lookups,
  feeds: boolean,
): void {
  const postUri = '/t/atom/lists/list_id=:listId'
  router
    .get('/t/atom/lists', withWsse(listsRoot(store, feeds)))
    .post(postUri, withWsse(createItem(store, lookups)))
    .get(`${postUri}/entry_id=:entryId`, withWsse(readItem(store)))
  if (feeds) registerPagedFeed(router, store, postUri, withWsse, async ({ origin, params }, user) => {
    return listFeed(store, await ownedList(store, user, params['listId']), origin)
  })
  registerListPages(router, store)
}

/** GET /t/atom/lists: each list's PostURI, its feed (an extension: the same address) and public page. */
function listsRoot(store: Store, feeds: boolean): AuthenticatedHandler {
  return async ({ origin }, user) =>
    atomReply(
      200,
      writeLinkFeed(
        (await store.lists.ownedBy(user.id)).flatMap((list) => {
          const { post, page } = listAddresses(origin, list)
          return [
            { rel: 'service.post', href: post, type: ATOM_MEDIA_TYPE, title: list.title },
            ...(feeds ? [{ rel: 'service.feed', href: post, type: ATOM_MEDIA_TYPE, title: list.title }] : []),
            { rel: 'alternate', href: page, type: 'text/html', title: list.title },
          ]
        }),
      ),
    )
}

/** A list's items as a paged feed, each with its type's elements (docs/PROTOCOL.md, "Album and list feeds"). */
function listFeed(store: Store, list: List, origin: string): PagedFeed<ListItem> {
  const { post, page } = listAddresses(origin, list)
  const { title } = list
  return {
    title,
    feedUri: post,
    links: [
      { rel: 'alternate', href: page, type: 'text/html', title },
      { rel: 'service.post', href: post, type: ATOM_MEDIA_TYPE, title },
    ],
    rows: (offset, limit) => store.lists.itemsPage(list.id, offset, limit),
    entry: (item) => entryOfItem(item, list, origin),
    modified: (item) => item.created,
  }
}

function createItem(store: Store, lookups: Lookups): AuthenticatedHandler {
  return async ({ request, origin, params }, user) => {
    const list = await ownedList(store, user, params['listId'])
    const xml = await readAtomBody(request, ITEM_MAX_BYTES)
    const idempotent = idempotentRequest(request, xml)
    const earlier = idempotent && (await replay(store.idempotency, user.id, idempotent))
    if (earlier) return earlier

    const draft = draftFromEntry(list, entryFromBody(xml, request, origin))
    const fields = await completeItem(list.type, draft.fields, lookups)
    const created = now()
    return store.transaction(async () => {
      // The lookups gave a retry with the same key time to finish first: answer what it made.
      const meanwhile = idempotent && (await replay(store.idempotency, user.id, idempotent))
      if (meanwhile) return meanwhile
      const item = await store.lists.addItem({ ...draft, listId: list.id, fields, issued: draft.issued ?? created }, created)
      await store.events.record({ actorId: user.id, verb: 'NewAsset', objectType: 'ListItem', objectId: item.id })
      const reply = entryReply(201, item, list, origin, { Location: itemAddresses(origin, list, item.id).edit })
      if (idempotent) await remember(store.idempotency, user.id, idempotent, reply)
      return reply
    })
  }
}

function readItem(store: Store): AuthenticatedHandler {
  return async ({ origin, params }, user) => {
    const list = await ownedList(store, user, params['listId'])
    return entryReply(200, await itemOf(store, user, list, params['entryId']), list, origin)
  }
}

function entryReply(
  status: number,
  item: ListItem,
  list: List,
  origin: string,
  headers: Record<string, string> = {},
): Reply & { body: string } {
  const body = writeEntry(entryOfItem(item, list, origin))
  return { ...atomReply(status, body, headers), body }
}

/** The item an EditURI names: 403 when it is another user's, 404 when it is not in this list. */
async function itemOf(store: Store, user: User, list: List, entryId: string | undefined): Promise<ListItem> {
  const id = idOf(entryId)
  const item = id === null ? null : await store.lists.findItem(id)
  if (item && item.listId !== list.id && (await store.lists.find(item.listId))?.ownerId !== user.id) {
    throw new HttpError(403, `The item ${item.id} belongs to another user, so ${user.username} cannot use it.`)
  }
  if (!item || item.listId !== list.id) {
    throw new HttpError(404, `The list "${list.title}" has no item ${entryId ?? ''}. Its public page shows the items it has.`)
  }
  return item
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
}
