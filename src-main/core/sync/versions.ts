// Versions of a post, for telling "the server changed it since we last saw it" (a conflict) from "the server already
// has what we are sending" (our earlier attempt got through). Servers store markup with small differences (trimmed,
// re-indented), so text is compared with its whitespace normalised.
import { createHash } from 'node:crypto'
import type { PostSnapshot } from './operations'

/** The version of a post's text: equal for the same title, content (whitespace aside) and set of categories. */
export function contentHash(post: PostSnapshot): string {
  const categories = [...new Set(post.categories.map((category) => category.trim()))].sort()
  return createHash('sha256')
    .update(JSON.stringify([post.title.trim(), normalisedMarkup(post.content), categories]))
    .digest('base64url')
}

export function sameText(a: PostSnapshot, b: PostSnapshot): boolean {
  return contentHash(a) === contentHash(b)
}

function normalisedMarkup(html: string): string {
  return html.replace(/>\s+</g, '><').replace(/\s+/g, ' ').trim()
}
