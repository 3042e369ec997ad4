// The frame of every public page (weblogs, posts, photos, lists): one escaped HTML layout, served with a Content
// Security Policy that allows no script, no plugin, no form and no framing, whatever a page ends up containing.
import type { Reply } from '../routes/reply'

/** Images from anywhere (posts link them), inline styles (the layout's own); nothing else, and never script. */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  'img-src http: https: data:',
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const HTML_SPECIALS = /[&<>"']/g
const HTML_REFERENCES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for use between tags and inside quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIALS, (character) => HTML_REFERENCES[character] ?? character)
}

const LONG_DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

/** A W3CDTF date as people write it (6 August 2004, in UTC), machine-readable in its datetime attribute. */
export function dateHtml(w3cDate: string): string {
  return `<time datetime="${escapeHtml(w3cDate)}">${escapeHtml(LONG_DATE.format(new Date(w3cDate)))}</time>`
}

export interface PageContent {
  /** Plain text; escaped here. */
  title: string
  /** Markup for inside <main>; every piece of user text in it must already be escaped (or sanitised). */
  body: string
  status?: number
}

/** A whole HTML document with the security headers every public page carries. */
export function htmlPage({ title, body, status = 200 }: PageContent): Reply {
  const document = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`
  return {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PAGE_CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: document,
  }
}

/** A page saying that nothing lives at this address, for a person who followed an old or mistyped link. */
export function notFoundPage(message: string): Reply {
  return htmlPage({ title: 'Not found', body: `<h1>Not found</h1>\n<p>${escapeHtml(message)}</p>`, status: 404 })
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.55; --ink: #1d2430; --accent: #1f5f8b; }
@media (prefers-color-scheme: dark) { :root { --ink: #e4e8ee; --accent: #8cc4ea; } }
body { margin: 0; padding: 2rem 1rem; color: var(--ink); }
main { max-width: 42rem; margin: 0 auto; }
h1 { font-size: 1.8rem; line-height: 1.2; margin: 0 0 1.5rem; color: var(--accent); }
a { color: var(--accent); }
img { max-width: 100%; height: auto; }
figure { margin: 1.25rem 0; }
figcaption { font-size: 0.9rem; opacity: 0.8; margin-top: 0.35rem; }
figure.alignleft { float: left; max-width: 50%; margin: 0.3rem 1.25rem 0.75rem 0; }
figure.alignright { float: right; max-width: 50%; margin: 0.3rem 0 0.75rem 1.25rem; }
figure.aligncenter { text-align: center; }
figure.alignfull img { width: 100%; }
blockquote { margin: 1rem 0; padding-left: 1rem; border-left: 3px solid #8888; }
pre { overflow-x: auto; }
nav, .meta { font-size: 0.9rem; opacity: 0.75; }
ol.posts { list-style: none; padding: 0; }
ol.posts li { margin: 0 0 1.25rem; }
ol.posts a { font-size: 1.15rem; }
`.trim()
