// An image of a post as plain HTML, so the weblog, Movable Type and any source view keep it as it is:
//
//   <figure class="alignright">                           alignment: alignleft | aligncenter | alignright | alignfull
//     <a href="blogdesk-media:<hash>">                    optional: a link (to the original file, or anywhere)
//       <img src="blogdesk-media:<hash>" alt="…" width="600">    alt="" is a decorative image; no alt, not yet described
//     </a>
//     <figcaption>The caption</figcaption>                 optional
//   </figure>
//
// An image with none of these is a bare <img>, as before. Classes rather than inline styles: sanitisers drop `style`
// (Blogdesk's own service and the editor's paste filter do), and these four names are those WordPress themes and
// many others already style; Blogdesk's service styles them on its public pages.
import type { Attributes } from '@tiptap/core'
import type { DOMOutputSpec, Node as ProseMirrorNode } from '@tiptap/pm/model'

export type ImageAlign = 'left' | 'center' | 'right' | 'full'

export const IMAGE_ALIGNMENTS: readonly { value: ImageAlign | null; label: string }[] = [
  { value: null, label: 'As the weblog shows it' },
  { value: 'left', label: 'Left, text around it' },
  { value: 'center', label: 'Centred' },
  { value: 'right', label: 'Right, text around it' },
  { value: 'full', label: 'Full width' },
]

/** What the properties panel edits; `src`, `alt` and `width` are the <img>'s own attributes. */
export interface ImageProperties {
  src: string
  /** null: not described yet (warned about at publish); '': decorative, nothing to read out. */
  alt: string | null
  caption: string | null
  align: ImageAlign | null
  /** Shown at this width in pixels; null: its own width (at most the weblog's maximum). */
  width: number | null
  /** Where clicking the image goes: the original file when that was chosen, or any address a post already had. */
  link: string | null
}

const ALIGN_CLASS = /(?:^|\s)align(left|center|right|full)(?:\s|$)/

/** The <img> of a figure, or the element itself when it is one. */
function imageOf(element: HTMLElement): HTMLElement | null {
  return element.tagName === 'IMG' ? element : element.querySelector('img')
}

function numberOrNull(value: string | null | undefined): number | null {
  return value && /^\d{1,5}$/.test(value) ? Number(value) : null
}

/**
 * The image node's attributes, each read from a bare <img> or from the figure around one. None is rendered by
 * itself: `renderImage` writes the whole figure.
 */
export function imageAttributes(): Attributes {
  const fromImage = (name: string) => ({
    default: null,
    rendered: false,
    parseHTML: (element: HTMLElement) => imageOf(element)?.getAttribute(name) ?? null,
  })
  return {
    src: fromImage('src'),
    alt: fromImage('alt'),
    title: fromImage('title'),
    width: { default: null, rendered: false, parseHTML: (element: HTMLElement) => numberOrNull(imageOf(element)?.getAttribute('width')) },
    // A height would stretch the image once its width changes; the browser keeps the proportions without it.
    height: { default: null, rendered: false, parseHTML: () => null },
    caption: {
      default: null,
      rendered: false,
      parseHTML: (element: HTMLElement) => (element.tagName === 'FIGURE' ? element.querySelector('figcaption')?.textContent?.trim() || null : null),
    },
    align: {
      default: null,
      rendered: false,
      parseHTML: (element: HTMLElement) => (element.tagName === 'FIGURE' ? (ALIGN_CLASS.exec(element.className)?.[1] ?? null) : null),
    },
    link: {
      default: null,
      rendered: false,
      parseHTML: (element: HTMLElement) => imageOf(element)?.closest('a')?.getAttribute('href') ?? null,
    },
  }
}

/** A figure is an image when it holds one; a linked image outside a figure is read as the image (its link kept). */
export const IMAGE_PARSE_RULES = [
  { tag: 'figure', getAttrs: (element: HTMLElement) => (imageOf(element)?.getAttribute('src') ? null : false) },
  { tag: 'img[src]:not([src^="data:"])' },
]

export function propertiesOf(node: ProseMirrorNode): ImageProperties {
  const attrs = node.attrs as Record<string, unknown>
  return {
    src: String(attrs['src'] ?? ''),
    alt: (attrs['alt'] as string | null) ?? null,
    caption: (attrs['caption'] as string | null) ?? null,
    align: (attrs['align'] as ImageAlign | null) ?? null,
    width: (attrs['width'] as number | null) ?? null,
    link: (attrs['link'] as string | null) ?? null,
  }
}

/** The image as the post's HTML has it (see the top of this file). */
export function renderImage(node: ProseMirrorNode): DOMOutputSpec {
  const { src, alt, caption, align, width, link } = propertiesOf(node)
  const title = node.attrs['title'] as string | null
  const image: DOMOutputSpec = ['img', withoutNulls({ src, alt, title, width: width === null ? null : String(width) })]
  const linked: DOMOutputSpec = link ? ['a', { href: link }, image] : image
  if (caption === null && align === null && link === null) return image
  const figure: DOMOutputSpec[] = [linked]
  if (caption !== null) figure.push(['figcaption', caption])
  return ['figure', align ? { class: `align${align}` } : {}, ...figure]
}

function withoutNulls(attributes: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string] => entry[1] !== null))
}

/** The images of the post not yet described (no alt text, and not marked decorative), with where each is. */
export function imagesWithoutAlt(doc: ProseMirrorNode): { position: number; node: ProseMirrorNode }[] {
  const found: { position: number; node: ProseMirrorNode }[] = []
  doc.descendants((node, position) => {
    if (node.type.name === 'image' && node.attrs['alt'] === null) found.push({ position, node })
    return !node.isTextblock
  })
  return found
}
