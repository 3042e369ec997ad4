// Friends' HTML (post bodies, comments) made safe to show in the feed by DOMPurify instances of the feed's own. Inline
// styles and event handlers go (the page's CSP would refuse them and log an error for each), and so do forms and
// media that would play; images load only where the reader allowed the friend's remote images. Each event's HTML
// is cleaned once for each choice: scrolling back past it costs nothing.
import createDOMPurify from 'dompurify'
import { imageMayLoad } from './remote-images'

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'dialog', 'video', 'audio', 'iframe'],
  // `background` would fetch an image past the reader's choice of remote images.
  FORBID_ATTR: ['style', 'srcset', 'background', 'id', 'name', 'tabindex'],
}

/** Enough to hold what the reader scrolls through back and forth; the oldest cleaned HTML goes first. */
const CACHE_SIZE = 2_000

/** A cleaner of the feed's HTML, with its own DOMPurify and cache; images load only when `loadRemoteImages`. */
function cleaner(loadRemoteImages: boolean): (key: string, html: string) => string {
  const purify = createDOMPurify(window)
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'IMG') return
    // Without a source nothing is requested: the alt text stands in (styled as a placeholder).
    if (!imageMayLoad(node.getAttribute('src') ?? '', loadRemoteImages)) node.removeAttribute('src')
    node.setAttribute('loading', 'lazy')
  })
  const cleaned = new Map<string, string>()
  return (key, html) => {
    const known = cleaned.get(key)
    if (known !== undefined) return known
    const safe = purify.sanitize(html, CONFIG)
    if (cleaned.size >= CACHE_SIZE) cleaned.delete(cleaned.keys().next().value!)
    cleaned.set(key, safe)
    return safe
  }
}

const withRemoteImages = cleaner(true)
const withoutRemoteImages = cleaner(false)

/** The event's HTML, safe for the DOM; `key` names the event (its urlId), so the work is done once. */
export function sanitizedHtml(key: string, html: string, loadRemoteImages: boolean): string {
  return (loadRemoteImages ? withRemoteImages : withoutRemoteImages)(key, html)
}
