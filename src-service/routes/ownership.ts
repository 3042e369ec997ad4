// The weblog, album or list an Atom address names, for the user who signed the request: 404 when there is none,
// 403 when it is someone else's. Routes ask before they read the request body, so a refusal costs no upload.
import type { Album, List, Store, User, Weblog } from '../store'
import { idOf } from './posts-entry'
import { HttpError } from './reply'

export function ownedWeblog(store: Store, user: User, blogId: string | undefined): Promise<Weblog> {
  return owned(user, blogId, (id) => store.weblogs.find(id), {
    missing: `There is no weblog ${blogId ?? ''} on this service. The root listing (/t/atom/weblog) lists yours.`,
    othersOwn: (weblog) =>
      `The weblog ${weblog.id} belongs to another user, so ${user.username} cannot use it. Sign in as its owner.`,
  })
}

export function ownedAlbum(store: Store, user: User, setId: string | undefined): Promise<Album> {
  return owned(user, setId, (id) => store.albums.find(id), {
    missing:
      `There is no photo album ${setId ?? ''} on this service. The gallery listing (/t/atom/gallery) lists yours.`,
    othersOwn: (album) => `The album ${album.id} belongs to another user, so ${user.username} cannot add photos to it.`,
  })
}

export function ownedList(store: Store, user: User, listId: string | undefined): Promise<List> {
  return owned(user, listId, (id) => store.lists.find(id), {
    missing: `There is no list ${listId ?? ''} on this service. The lists root (/t/atom/lists) lists yours.`,
    othersOwn: (list) =>
      `The list ${list.id} belongs to another user, so ${user.username} cannot use it. Sign in as its owner.`,
  })
}

async function owned<T extends { id: number; ownerId: number }>(
  user: User,
  idText: string | undefined,
  find: (id: number) => Promise<T | null>,
  refusals: { missing: string; othersOwn: (found: T) => string },
): Promise<T> {
  const id = idOf(idText)
  const found = id === null ? null : await find(id)
  if (!found) throw new HttpError(404, refusals.missing)
  if (found.ownerId !== user.id) throw new HttpError(403, refusals.othersOwn(found))
  return found
}
