// Excerpts, and image links read out of sanitised HTML (public/sanitize.ts output: balanced tags, attributes in
// double quotes, text escaped), for the JSON interface.
/** An excerpt of this many characters at most, cut at a word, as TypePad's excerpts were. */
const EXCERPT_LENGTH = 200

/** At most EXCERPT_LENGTH characters of `text`, ending at a word with "…" when shortened. */
export function excerptOf(text: string): string {
  const characters = [...text]
  if (characters.length <= EXCERPT_LENGTH) return text
  const cut = characters.slice(0, EXCERPT_LENGTH - 1).join('')
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > EXCERPT_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}

export interface EmbeddedImage {
  url: string
  width?: number
  height?: number
}

const IMAGE_ATTRIBUTES = { src: /\ssrc="([^"]*)"/, width: /\swidth="([^"]*)"/, height: /\sheight="([^"]*)"/ }

/** The images of sanitised HTML, in document order, with the size their tags give. */
export function embeddedImagesOf(html: string): EmbeddedImage[] {
  const images: EmbeddedImage[] = []
  for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
    const src = IMAGE_ATTRIBUTES.src.exec(tag)?.[1]
    if (src === undefined) continue
    const image: EmbeddedImage = { url: decodeReferences(src) }
    const width = dimension(IMAGE_ATTRIBUTES.width.exec(tag)?.[1])
    const height = dimension(IMAGE_ATTRIBUTES.height.exec(tag)?.[1])
    if (width !== undefined) image.width = width
    if (height !== undefined) image.height = height
    images.push(image)
  }
  return images
}

function dimension(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,5}$/.test(text) ? Number(text) : undefined
}

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
// Browsers also decode references without their semicolon in attribute values.
const ATTRIBUTE_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]+));?/g

/**
 * Attribute values are judged as the browser would read them, so references are decoded first. Named references
 * beyond the common few stay literal: the value is re-escaped on output, so the browser reads exactly what was judged.
 */
function decodeReferences(value: string): string {
  return value.replace(ATTRIBUTE_REFERENCE, (whole, decimal?: string, hex?: string, named?: string) => {
    if (named !== undefined) return NAMED_REFERENCES[named.toLowerCase()] ?? whole
    const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16)
    return codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff)
      ? String.fromCodePoint(codePoint)
      : '\ufffd'
  })
}
