// Images in a post that are still on this computer. The editor writes them as `blogdesk-media:<sha256>` — the
// SHA-256 (64 lowercase hex digits) of a media copy in the local store (MediaCopies) — in an `src` or `href`
// attribute, e.g. `<img src="blogdesk-media:9f86d0…">`. Before the post is sent, each is uploaded through the
// weblog's UploadURI (once per weblog and hash) and the attribute rewritten to the public URL the server gave it.

export const LOCAL_MEDIA_SCHEME = 'blogdesk-media:'

const LOCAL_MEDIA_ATTRIBUTE = /(\s(?:src|href)\s*=\s*)(["'])blogdesk-media:([0-9a-f]{64})\2/gi

/** The hashes of the local media `html` refers to, each once, in order of appearance. */
export function localMediaIn(html: string): string[] {
  const hashes = new Set<string>()
  for (const match of html.matchAll(LOCAL_MEDIA_ATTRIBUTE)) hashes.add(match[3]!.toLowerCase())
  return [...hashes]
}

/** `html` with each local media reference replaced by its public URL from `urls` (by hash). */
export function withPublicMedia(html: string, urls: ReadonlyMap<string, string>): string {
  return html.replace(LOCAL_MEDIA_ATTRIBUTE, (whole, lead: string, _quote: string, hash: string) => {
    const url = urls.get(hash.toLowerCase())
    return url === undefined ? whole : `${lead}"${escapeAttribute(url)}"`
  })
}

export function localMediaReference(hash: string): string {
  return `${LOCAL_MEDIA_SCHEME}${hash}`
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')
}
