/** Namespace URIs of the Atom 0.3 interface (docs/PROTOCOL.md). Match elements by these, never by prefix. */
export const NS = {
  atom: 'http://purl.org/atom/ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  photo: 'http://sixapart.com/atom/photo#',
  category: 'http://sixapart.com/atom/category#',
  song: 'http://sixapart.com/atom/song#',
  book: 'http://sixapart.com/atom/book#',
  person: 'http://sixapart.com/atom/person#',
  link: 'http://sixapart.com/atom/link#',
  rvw: 'http://purl.org/NET/RVW/0.1/',
  rvw02: 'http://purl.org/NET/RVW/0.2/',
  bio: 'http://purl.org/vocab/bio/0.1/',
  xhtml: 'http://www.w3.org/1999/xhtml',
} as const

/** Atom 1.0, read where it costs nothing: its elements mean what their Atom 0.3 namesakes mean. */
export const ATOM_10_NS = 'http://www.w3.org/2005/Atom'

/** The namespace the `xml:` prefix is bound to in every document (xml:base, xml:lang). */
export const XML_NS = 'http://www.w3.org/XML/1998/namespace'

/** Bound to the `xmlns:` prefix; no document may declare it or bind anything to it. */
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

export const ATOM_MEDIA_TYPE = 'application/x.atom+xml'
