// Post HTML from the server or a draft, made safe to show: DOMPurify with a Blogdesk instance of its own (its hooks
// touch no other feature's sanitising). Inline styles go too: the page's CSP would refuse them anyway; and so do id
// and name, with which a post could shadow the page's own globals and elements (DOM clobbering).
import createDOMPurify from 'dompurify'

const purify = createDOMPurify(window)

const SHOWABLE_IMAGE = /^(https?:|data:image\/)/i

// An image not yet uploaded (blogdesk-media:) or from an odd scheme cannot load here: its alt text stands in.
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'IMG') return
  const src = node.getAttribute('src') ?? ''
  if (SHOWABLE_IMAGE.test(src)) return
  node.removeAttribute('src')
  node.removeAttribute('srcset')
  if (!node.getAttribute('alt')) node.setAttribute('alt', 'Image not yet uploaded')
})

export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'dialog'],
    FORBID_ATTR: ['style', 'srcset', 'id', 'name'],
  })
}
