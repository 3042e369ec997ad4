// Images in friends' HTML come from any server, and a server that sees an image asked for learns that the reader
// looked (a tracking pixel). As in a mail client, they load only when the reader said so for that friend.

const HTTP_SOURCE = /^https?:/i

/** Whether an <img> in a friend's HTML may keep its source: only http(s) can load here, and only with consent. */
export function imageMayLoad(src: string, loadRemoteImages: boolean): boolean {
  return loadRemoteImages && HTTP_SOURCE.test(src)
}
