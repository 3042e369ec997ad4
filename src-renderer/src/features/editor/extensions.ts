// The post editor's schema and behaviour: StarterKit's blocks and marks, links, and images that live in Blogdesk
// until the post is published. Node definitions only: every view here is plain DOM (no React node views), and what
// reaches the main process (importing an image, showing its preview) is passed in as functions.
import { Extension, type Extensions } from '@tiptap/react'
import Image from '@tiptap/extension-image'
import StarterKit from '@tiptap/starter-kit'
import type { Node as ProseMirrorNode } from '@tiptap/pm/model'
import { NodeSelection, Plugin, PluginKey } from '@tiptap/pm/state'
import { Decoration, DecorationSet, type EditorView, type NodeView } from '@tiptap/pm/view'
import { shortcuts, type LocalImage } from '../../../../src-shared/contract'
import { CaretKeys } from './caret'
import { FindInPost } from './find'
import { sanitizeHtml } from './html'
import { IMAGE_PARSE_RULES, imageAttributes, propertiesOf, renderImage } from './image-figure'
import { ImageGuard } from './image-guard'
import { scrollerOf, paneBandOf } from './scroll-pane'
import { rememberFileName } from './source-html'

export const LOCAL_MEDIA_SCHEME = 'blogdesk-media:'

/** An image refused here, before it reached the main process (not an image; dropped with other files). */
export class ImageRefused extends Error {
  override name = 'ImageRefused'
}

export interface ImageServices {
  /** Copies a pasted, dropped or picked image into Blogdesk. */
  importImage(file: File): Promise<LocalImage>
  /** A URL showing the image saved as `blogdesk-media:<hash>`. */
  previewOf(hash: string): Promise<string>
  /** An image could not be added or shown: tell the person. */
  onImageError(error: unknown): void
  /**
   * Asks for the alt text of an image about to be added, shown with it: the text ('' for a decorative image), or
   * null when the person chose not to add it after all.
   */
  describeImage(image: LocalImage, suggestedAlt: string): Promise<string | null>
  /** Opens the properties of the selected image (Alt+Enter or a double click on it). */
  showImageProperties(): void
}

export function postExtensions(images: ImageServices): Extensions {
  return [
    // Its gap cursor and trailing paragraph stay: the caret can sit before and after an image, and a post never ends
    // in one with no line after it to type on.
    StarterKit.configure({
      underline: false,
      link: {
        openOnClick: false,
        // Turning typed addresses into links re-reads the paragraph on every keystroke; pasted ones still become links.
        autolink: false,
        defaultProtocol: 'https',
        // A weblog's links are the writer's own: no new window, no nofollow, unless the HTML says so.
        HTMLAttributes: { target: null, rel: null },
      },
    }),
    PostImage.configure({ previewOf: images.previewOf, onImageError: images.onImageError, showImageProperties: images.showImageProperties }),
    ImageIntake.configure(images),
    EmptyDocumentHint,
    ScrollInFrame,
    TypingStaysInTheText,
    SelectionKeptByProseMirror,
    CaretKeys.configure({ pageOf: (view) => pageOf(view.dom), revealCaret: scrollCaretIntoView }),
    ImageGuard,
    FindInPost,
  ]
}

// ── Images ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Images added here but not yet published: what `blogdesk-media:<hash>` shows, kept for the session. */
const previewUrls = new Map<string, string>()

export function rememberPreview(image: LocalImage): void {
  previewUrls.set(image.hash, image.previewUrl)
}

/** What an image's `src` shows on this page: a local image's preview (once known), or the address itself. */
export function shownSourceOf(src: string): string | null {
  const hash = localHashOf(src)
  return hash === null ? src : (previewUrls.get(hash) ?? null)
}

/** What `blogdesk-media:<hash>` shows, as the editor shows it: the session's copy, else the main process's (kept). */
export async function localPreviewUrl(hash: string, previewOf: ImageServices['previewOf']): Promise<string> {
  const known = previewUrls.get(hash)
  if (known) return known
  const url = await previewOf(hash)
  previewUrls.set(hash, url)
  return url
}

function localHashOf(src: string | null): string | null {
  return src?.startsWith(LOCAL_MEDIA_SCHEME) ? src.slice(LOCAL_MEDIA_SCHEME.length) : null
}

interface PostImageOptions {
  previewOf: ImageServices['previewOf']
  onImageError: ImageServices['onImageError']
  showImageProperties: ImageServices['showImageProperties']
}

/**
 * An image whose `src` is saved as the post will have it: `blogdesk-media:<hash>` until it is uploaded. The view shows
 * its preview instead, since the page cannot load that address. Alt text, caption, alignment, width and link are its
 * attributes, written as a <figure> (image-figure.ts).
 */
const PostImage = Image.extend<PostImageOptions>({
  addOptions() {
    return {
      ...this.parent!(),
      previewOf: () => Promise.reject(new Error('No preview service given')),
      onImageError: () => {},
      showImageProperties: () => {},
    }
  },
  addAttributes: imageAttributes,
  parseHTML: () => IMAGE_PARSE_RULES,
  renderHTML: ({ node }) => renderImage(node),
  addNodeView() {
    return ({ node }) => new PostImageView(node, this.options)
  },
  addKeyboardShortcuts() {
    return {
      [shortcuts.imageProperties.keys]: ({ editor }) => {
        const { selection } = editor.state
        if (!(selection instanceof NodeSelection) || selection.node.type.name !== this.name) return false
        this.options.showImageProperties()
        return true
      },
    }
  },
  addProseMirrorPlugins() {
    const { showImageProperties } = this.options
    return [
      new Plugin({
        key: new PluginKey('imageProperties'),
        props: {
          // The browser's own double click: ProseMirror's counts two single clicks half a second apart, keys between.
          handleDOMEvents: {
            dblclick(view, event) {
              const { selection } = view.state
              const onImage = event.target instanceof HTMLImageElement && event.target.classList.contains('post-image')
              if (!onImage || !(selection instanceof NodeSelection) || selection.node.type.name !== 'image') return false
              event.preventDefault()
              showImageProperties()
              return true
            },
          },
        },
      }),
    ]
  },
})

/** The image in a figure with its caption, drawn as the weblog will show it; an image not yet described says so. */
class PostImageView implements NodeView {
  readonly dom: HTMLElement
  readonly #image: HTMLImageElement
  readonly #caption: HTMLElement
  #node: ProseMirrorNode
  readonly #options: PostImageOptions

  constructor(node: ProseMirrorNode, options: PostImageOptions) {
    this.dom = document.createElement('figure')
    this.#image = document.createElement('img')
    this.#image.className = 'post-image'
    this.#caption = document.createElement('figcaption')
    this.#caption.className = 'post-figure__caption'
    this.dom.append(this.#image, this.#caption)
    this.#node = node
    this.#options = options
    this.#describe(node)
    this.#show(node)
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.#node.type) return false
    const before = this.#node
    this.#node = node
    this.#describe(node)
    if (node.attrs['src'] !== before.attrs['src']) this.#show(node)
    return true
  }

  /** Everything but the picture itself: alt text, width, caption, alignment. */
  #describe(node: ProseMirrorNode): void {
    const { alt, caption, align, width, link } = propertiesOf(node)
    this.dom.className = ['post-figure', align ? `post-figure--${align}` : '', alt === null ? 'post-figure--undescribed' : '', link ? 'post-figure--linked' : '']
      .filter(Boolean)
      .join(' ')
    const title = node.attrs['title'] as string | null
    for (const [name, value] of Object.entries({ alt, title, width: width === null ? null : String(width) })) {
      if (value === null) this.#image.removeAttribute(name)
      else this.#image.setAttribute(name, value)
    }
    this.#caption.textContent = caption ?? ''
    this.#caption.hidden = caption === null
  }

  #show(node: ProseMirrorNode): void {
    const src = node.attrs['src'] as string | null
    const hash = localHashOf(src ?? null)
    if (hash === null) {
      this.#setSource(src ?? null)
      return
    }
    const known = previewUrls.get(hash)
    if (known) {
      this.#setSource(known)
      return
    }
    this.#setSource(null)
    this.#image.classList.add('post-image--loading')
    this.#options.previewOf(hash).then(
      (url) => {
        previewUrls.set(hash, url)
        if (this.#node.attrs['src'] === src) this.#setSource(url)
      },
      (error: unknown) => {
        this.#image.classList.remove('post-image--loading')
        this.#image.classList.add('post-image--missing')
        this.#options.onImageError(error)
      },
    )
  }

  #setSource(url: string | null): void {
    this.#image.classList.remove('post-image--loading', 'post-image--missing')
    if (url === null) this.#image.removeAttribute('src')
    else this.#image.src = url
  }

  /** The picture itself is marked selected (its outline), not the figure and caption around it. */
  selectNode(): void {
    this.#image.classList.add('ProseMirror-selectednode')
  }

  deselectNode(): void {
    this.#image.classList.remove('ProseMirror-selectednode')
  }

  /** The caption and the picture are the node's own drawing: ProseMirror must not read them back as typed text. */
  ignoreMutation(): boolean {
    return true
  }
}

type ImageIntakeOptions = Pick<ImageServices, 'importImage' | 'onImageError' | 'describeImage'>

/** Images pasted or dropped in are copied into Blogdesk and put where they landed; pasted HTML is sanitised. */
const ImageIntake = Extension.create<ImageIntakeOptions>({
  name: 'imageIntake',
  addOptions() {
    return {
      importImage: () => Promise.reject(new Error('No image import given')),
      onImageError: () => {},
      describeImage: () => Promise.resolve(null),
    }
  },
  addProseMirrorPlugins() {
    const options = this.options
    return [
      new Plugin({
        key: new PluginKey('imageIntake'),
        props: {
          transformPastedHTML: sanitizeHtml,
          handlePaste(view, event) {
            const clipboard = event.clipboardData
            // A copied selection of text and pictures (a web page, a document) is pasted as HTML; an image alone as a file.
            if (!clipboard || clipboard.getData('text/plain').trim() !== '') return false
            const files = imageFiles(clipboard.files)
            if (files.length === 0) return false
            void insertImages(view, files, view.state.selection.from, options)
            return true
          },
          handleDrop(view, event, _slice, moved) {
            const files = event.dataTransfer ? [...event.dataTransfer.files] : []
            if (moved || files.length === 0) return false
            event.preventDefault()
            const images = imageFiles(files)
            if (images.length < files.length) {
              options.onImageError(new ImageRefused('Only images can be dropped into a post: JPEG, PNG, GIF, WebP, HEIC or AVIF files.'))
            }
            const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.selection.from
            void insertImages(view, images, at, options)
            return true
          },
        },
      }),
    ]
  },
})

function imageFiles(files: FileList | File[]): File[] {
  return [...files].filter((file) => file.type.startsWith('image/'))
}

/**
 * Copies each file in, asks for its alt text, and puts the images at `at` (mapped through whatever was typed
 * meanwhile), in order.
 */
export async function insertImages(view: EditorView, files: File[], at: number, options: ImageIntakeOptions): Promise<void> {
  const imageType = view.state.schema.nodes['image']!
  let position = at
  for (const file of files) {
    let image: LocalImage
    try {
      image = await options.importImage(file)
    } catch (error) {
      options.onImageError(error)
      continue
    }
    if (view.isDestroyed) return
    rememberPreview(image)
    rememberFileName(image.hash, file.name)
    const alt = await options.describeImage(image, altTextOf(file.name))
    if (alt === null || view.isDestroyed) continue
    const node = imageType.create({ src: `${LOCAL_MEDIA_SCHEME}${image.hash}`, alt })
    const target = Math.min(position, view.state.doc.content.size)
    const transaction = view.state.tr.insert(target, node)
    position = transaction.mapping.map(target)
    view.dispatch(transaction.scrollIntoView())
  }
}

/** "Harbour at dusk" from "harbour-at-dusk.jpg"; nothing from a clipboard's "image.png". */
function altTextOf(fileName: string): string {
  const words = fileName.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim()
  if (words === '' || /^(image|img|pasted image|screenshot)\s*\d*$/i.test(words)) return ''
  return words.charAt(0).toUpperCase() + words.slice(1)
}

// ── The empty document's hint ───────────────────────────────────────────────────────────────────────────────────

/** "Write your post…" in an empty document. Looks at the document's first node only, never walks it. */
const EmptyDocumentHint = Extension.create({
  name: 'emptyDocumentHint',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('emptyDocumentHint'),
        props: {
          decorations({ doc }) {
            const first = doc.firstChild
            if (doc.childCount !== 1 || !first?.isTextblock || first.content.size > 0) return null
            return DecorationSet.create(doc, [Decoration.node(0, first.nodeSize, { class: 'is-empty', 'data-placeholder': 'Write your post…' })])
          },
        },
      }),
    ]
  },
})

// ── Keeping the caret in view ───────────────────────────────────────────────────────────────────────────────────

/** Room kept between the caret and the edge of the pane when scrolling to it. */
const CARET_MARGIN_PX = 24

/**
 * Brings the caret into view in the next frame rather than at once. Finding where the caret is lays the page out,
 * which the frame does anyway; done on every keystroke, a long post would be laid out twice per key.
 */
const ScrollInFrame = Extension.create({
  name: 'scrollInFrame',
  addProseMirrorPlugins() {
    let frame = 0
    return [
      new Plugin({
        key: new PluginKey('scrollInFrame'),
        props: {
          handleScrollToSelection(view) {
            frame ||= requestAnimationFrame(() => {
              frame = 0
              if (!view.isDestroyed) scrollCaretIntoView(view)
            })
            return true
          },
        },
      }),
    ]
  },
})

function scrollCaretIntoView(view: EditorView): void {
  const scroller = scrollerOf(view.dom)
  const caret = view.coordsAtPos(view.state.selection.head)
  const pane = paneBandOf(scroller)
  const top = pane.top + CARET_MARGIN_PX
  const bottom = pane.bottom - CARET_MARGIN_PX
  if (caret.top < top) scroller.scrollTop -= top - caret.top
  else if (caret.bottom > bottom) scroller.scrollTop += caret.bottom - bottom
}

/** The pane the text scrolls in (the bars are outside it) and the height shown in it: a page, for PageDown. */
function pageOf(text: HTMLElement): { scroller: Element; height: number } {
  const scroller = scrollerOf(text)
  const paneHeight = scroller === document.scrollingElement ? window.innerHeight : scroller.clientHeight
  return { scroller, height: Math.max(paneHeight - 2 * CARET_MARGIN_PX, CARET_MARGIN_PX) }
}

// ── Typing stays in the text ────────────────────────────────────────────────────────────────────────────────────

/** What a keystroke sends, besides the selection's change. */
const TYPING_EVENTS = ['keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'compositionstart', 'compositionupdate', 'compositionend']

/**
 * Typing ends at the text once ProseMirror has handled it. No React handler sits above the text (the window's
 * shortcuts listen while the event comes down), and React's own pass over every bubbling keystroke costs more than
 * ProseMirror's handling of it.
 */
const TypingStaysInTheText = Extension.create({
  name: 'typingStaysInTheText',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('typingStaysInTheText'),
        view(view) {
          const stop = (event: Event) => event.stopPropagation()
          for (const type of TYPING_EVENTS) view.dom.addEventListener(type, stop)
          return { destroy: () => TYPING_EVENTS.forEach((type) => view.dom.removeEventListener(type, stop)) }
        },
      }),
    ]
  },
})

// ── The selection is ProseMirror's ──────────────────────────────────────────────────────────────────────────────

const nativeContentEditable = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'contentEditable')!

/**
 * React saves and restores the selection of a focused contenteditable around each of its commits, counting the
 * characters of every text node in it: at 50,000 words, 5 to 15 ms whenever the save indicator, the toolbar or the
 * word count changes while the writer types. ProseMirror keeps the selection itself, so the text does not present
 * itself to React as a contenteditable. Only the `contentEditable` property, which React reads, says so; the
 * attribute, which the browser and assistive technology go by, is untouched.
 */
const SelectionKeptByProseMirror = Extension.create({
  name: 'selectionKeptByProseMirror',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('selectionKeptByProseMirror'),
        view(view) {
          Object.defineProperty(view.dom, 'contentEditable', {
            ...nativeContentEditable,
            get(this: HTMLElement) {
              const value = nativeContentEditable.get!.call(this) as string
              return value === 'true' ? 'inherit' : value
            },
          })
          return { destroy: () => delete (view.dom as Partial<HTMLElement>).contentEditable }
        },
      }),
    ]
  },
})
