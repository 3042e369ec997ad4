// The addresses a list item carries (a person's homepage and email, a link's URL, a picture), checked the same way by
// the app before it queues an item and by the service when one arrives; each side words its own refusal.

/** An http or https address as the URL standard writes it (`HTTP://Example.org` → `http://example.org/`); else null. */
export function webAddress(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
}

/** An email address, without the `mailto:` a copied link starts with; null when it has no single `@` between words. */
export function emailAddress(value: string): string | null {
  const address = value.replace(/^mailto:/i, '')
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address) ? address : null
}
