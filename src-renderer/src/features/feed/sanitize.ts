// Friends' HTML (post bodies, comments) made safe to show in the feed: a DOMPurify instance of the feed's own. Inline
// styles and event handlers go (the page's CSP would refuse them and log an error for each), and so do forms and
// media that would play. Each event's HTML is cleaned once: scrolling back past it costs nothing.
import createDOMPurify from 'dompurify'

const purify = createDOMPurify(window)

const SHOWABLE_IMAGE = /^https?:/i

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'IMG') return
  // An image from an odd scheme cannot load here: its alt text stands in.
  if (!SHOWABLE_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src')
  node.setAttribute('loading', 'lazy')
})

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'dialog', 'video', 'audio', 'iframe'],
  FORBID_ATTR: ['style', 'srcset', 'id', 'name', 'tabindex'],
}

/** Enough to hold what the reader scrolls through back and forth; the oldest cleaned HTML goes first. */
const CACHE_SIZE = 2_000
const cleaned = new Map<string, string>()

/** The event's HTML, safe for the DOM; `key` names the event (its urlId), so the work is done once. */
export function sanitizedHtml(key: string, html: string): string {
  const known = cleaned.get(key)
  if (known !== undefined) return known
  const safe = purify.sanitize(html, CONFIG)
  if (cleaned.size >= CACHE_SIZE) cleaned.delete(cleaned.keys().next().value!)
  cleaned.set(key, safe)
  return safe
}
