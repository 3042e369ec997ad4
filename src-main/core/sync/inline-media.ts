// Images in a post that are still on this computer. The editor writes them as `blogdesk-media:<sha256>` — the
// SHA-256 (64 lowercase hex digits) of a media copy in the local store (MediaCopies) — in an `src` or `href`
// attribute, e.g. `<img src="blogdesk-media:9f86d0…" width="600">`. Before the post is sent, each is uploaded through
// the weblog's UploadURI and the attribute rewritten to the public URL the server gave it. An <img> is sent at the
// width it is shown at (its `width` attribute, at most the weblog's maximum width); anything else that points at the
// file (`<a href>`, the link to the original) gets the file as it was added.

export const LOCAL_MEDIA_SCHEME = 'blogdesk-media:'

const LOCAL_MEDIA_ATTRIBUTE = /(\s(?:src|href)\s*=\s*)(["'])blogdesk-media:([0-9a-f]{64})\2/gi
/** A whole <img> tag; quoted attribute values may hold `>`. */
const IMAGE_TAG = /<img\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi
const LOCAL_SOURCE = /(\ssrc\s*=\s*)(["'])blogdesk-media:([0-9a-f]{64})\2/i
const WIDTH = /\swidth\s*=\s*["']?(\d{1,5})\b/i

/** What a post does with a local file: shows it as an image (at `width` pixels when set), or links to the file itself. */
export type MediaUse = { as: 'image'; hash: string; width: number | null } | { as: 'file'; hash: string }

/** The hashes of the local media `html` refers to, each once, in order of appearance. */
export function localMediaIn(html: string): string[] {
  const hashes = new Set<string>()
  for (const match of html.matchAll(LOCAL_MEDIA_ATTRIBUTE)) hashes.add(match[3]!.toLowerCase())
  return [...hashes]
}

/** Each way `html` uses its local media, once, in order of appearance. */
export function localMediaUses(html: string): MediaUse[] {
  const uses = new Map<string, MediaUse>()
  rewriteLocalMedia(html, (use) => {
    uses.set(mediaUseKey(use), use)
    return undefined
  })
  return [...uses.values()]
}

/** One name per distinct use: the same file shown at two widths is two uploads, a link to it a third. */
export function mediaUseKey(use: MediaUse): string {
  return use.as === 'file' ? use.hash : `${use.hash}@${use.width ?? 'natural'}`
}

/** `html` with each local media reference replaced by the public URL `urlOf` gives its use (none: left as it is). */
export function withPublicMedia(html: string, urlOf: (use: MediaUse) => string | undefined): string {
  return rewriteLocalMedia(html, urlOf)
}

/** An <img> tag whole (so its own source is read with its width), or any other attribute naming a local file. */
const IMAGE_TAG_OR_ATTRIBUTE = new RegExp(`${IMAGE_TAG.source}|${LOCAL_MEDIA_ATTRIBUTE.source}`, 'gi')

function rewriteLocalMedia(html: string, urlOf: (use: MediaUse) => string | undefined): string {
  const replaced = (whole: string, lead: string, use: MediaUse) => {
    const url = urlOf(use)
    return url === undefined ? whole : `${lead}"${escapeAttribute(url)}"`
  }
  return html.replace(IMAGE_TAG_OR_ATTRIBUTE, (match: string, lead: string | undefined, _quote: string, hash: string | undefined) => {
    if (lead !== undefined && hash !== undefined) return replaced(match, lead, { as: 'file', hash: hash.toLowerCase() })
    return match.replace(LOCAL_SOURCE, (whole, sourceLead: string, _sourceQuote: string, sourceHash: string) => {
      const width = WIDTH.exec(match)?.[1]
      return replaced(whole, sourceLead, { as: 'image', hash: sourceHash.toLowerCase(), width: width === undefined ? null : Number(width) })
    })
  })
}

export function localMediaReference(hash: string): string {
  return `${LOCAL_MEDIA_SCHEME}${hash}`
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')
}
