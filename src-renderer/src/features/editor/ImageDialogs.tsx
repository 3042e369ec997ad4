// The editor's questions about images: the alt text of an image being added, the properties of the selected image
// (alt text, caption, alignment, width, link to the original, replace), and the images without alt text found as the
// post is published. Each is a native modal <dialog>: focus stays inside, Escape cancels.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model'
import type { Editor } from '@tiptap/react'
import { NodeSelection } from '@tiptap/pm/state'
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { IMAGE_WIDTH_LIMITS, type LocalImage } from '../../../../src-shared/contract'
import { toApiError } from '../../lib/apiError'
import { Button, TextField } from '../../ui'
import { LOCAL_MEDIA_SCHEME, rememberPreview, shownSourceOf } from './extensions'
import { IMAGE_ALIGNMENTS, imagesWithoutAlt, propertiesOf, type ImageAlign, type ImageProperties } from './image-figure'
import './image-dialogs.css'

interface AltRequest {
  image: LocalImage
  suggestedAlt: string
  answer(alt: string | null): void
}

/** What an image without alt text looks like in the list shown at publish. */
interface UndescribedImage {
  position: number
  shown: string | null
}

export interface ImageDialogs {
  /** For ImageServices: asks for the alt text of an image being added. */
  describeImage(image: LocalImage, suggestedAlt: string): Promise<string | null>
  /** For ImageServices: opens the selected image's properties. */
  showImageProperties(): void
  /**
   * Publishes at once, or first lists the images of `doc` without alt text and lets the person fix them or go on.
   * `beforeFix` puts `doc` into the editor, where an image is described (from the source view: the HTML taken back).
   */
  publishChecked(doc: ProseMirrorNode, publish: () => void, beforeFix?: () => void): void
  /** The dialogs themselves, drawn with the editor. */
  render(editor: Editor, importImage: (file: File) => Promise<LocalImage>): ReactNode
}

export function useImageDialogs(): ImageDialogs {
  const [altRequest, setAltRequest] = useState<AltRequest | null>(null)
  const [propertiesAt, setPropertiesAt] = useState<{ request: number } | null>(null)
  const [undescribed, setUndescribed] = useState<{ images: UndescribedImage[]; publish(): void; beforeFix?: () => void } | null>(null)

  const describeImage = useCallback(
    (image: LocalImage, suggestedAlt: string) =>
      new Promise<string | null>((resolve) =>
        setAltRequest({
          image,
          suggestedAlt,
          answer: (alt) => {
            setAltRequest(null)
            resolve(alt)
          },
        }),
      ),
    [],
  )
  const showImageProperties = useCallback(() => setPropertiesAt((open) => ({ request: (open?.request ?? 0) + 1 })), [])

  const publishChecked = useCallback((doc: ProseMirrorNode, publish: () => void, beforeFix?: () => void) => {
    const missing = imagesWithoutAlt(doc)
    if (missing.length === 0) publish()
    else setUndescribed({ images: missing.map(({ position, node }) => ({ position, shown: shownSourceOf(String(node.attrs['src'])) })), publish, beforeFix })
  }, [])

  const render = (editor: Editor, importImage: (file: File) => Promise<LocalImage>) => (
    <>
      {altRequest && <AltTextDialog request={altRequest} />}
      {propertiesAt && (
        <ImagePropertiesDialog key={propertiesAt.request} editor={editor} importImage={importImage} onClose={() => setPropertiesAt(null)} />
      )}
      {undescribed && (
        <MissingAltDialog
          images={undescribed.images}
          onFix={(position, index) => {
            setUndescribed(null)
            // Taken into the editor, the image is the same one among those without alt text, wherever it now lies.
            if (undescribed.beforeFix) undescribed.beforeFix()
            const at = undescribed.beforeFix ? (imagesWithoutAlt(editor.state.doc)[index]?.position ?? position) : position
            editor.chain().focus().setNodeSelection(at).scrollIntoView().run()
            showImageProperties()
          }}
          onPublishAnyway={() => {
            setUndescribed(null)
            undescribed.publish()
          }}
          onCancel={() => setUndescribed(null)}
        />
      )}
    </>
  )

  return { describeImage, showImageProperties, publishChecked, render }
}

// ── A modal dialog ──────────────────────────────────────────────────────────────────────────────────────────────

interface ModalProps {
  title: string
  className?: string
  onCancel(): void
  onSubmit?(event: FormEvent<HTMLFormElement>): void
  children: ReactNode
  actions: ReactNode
}

/**
 * Opened as it is drawn, closed as it goes: focus goes to the control marked `data-autofocus` (React's autoFocus runs
 * before the dialog is open, when nothing in it can take focus) and back where it was after.
 */
function Modal({ title, className, onCancel, onSubmit, children, actions }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const element = dialog.current!
    const focusedBefore = document.activeElement as HTMLElement | null
    element.showModal()
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    return () => {
      element.close()
      focusedBefore?.focus()
    }
  }, [])
  return (
    <dialog
      ref={dialog}
      className={['dialog', 'image-dialog', className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault()
          onSubmit?.(event)
        }}
      >
        <h2 className="image-dialog__title" id={titleId}>
          {title}
        </h2>
        <div className="image-dialog__body">{children}</div>
        <div className="image-dialog__actions">{actions}</div>
      </form>
    </dialog>
  )
}

// ── Alt text, asked for as an image is added ────────────────────────────────────────────────────────────────────

const ALT_HINT = 'What the image shows, for readers who cannot see it: read out by screen readers, shown when the image cannot load.'
const ALT_MISSING = 'Describe the image, or mark it as decorative.'

function AltTextDialog({ request }: { request: AltRequest }) {
  const [alt, setAlt] = useState(request.suggestedAlt)
  const [decorative, setDecorative] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return (
    <Modal
      title="Describe this image"
      onCancel={() => request.answer(null)}
      onSubmit={() => {
        if (!decorative && alt.trim() === '') setError(ALT_MISSING)
        else request.answer(decorative ? '' : alt.trim())
      }}
      actions={
        <>
          <Button onClick={() => request.answer(null)}>Don’t add</Button>
          <Button variant="primary" type="submit">
            Add image
          </Button>
        </>
      }
    >
      <ImagePreview src={request.image.previewUrl} />
      <AltFields alt={alt} decorative={decorative} error={error} onAlt={setAlt} onDecorative={setDecorative} autoFocus />
    </Modal>
  )
}

function ImagePreview({ src }: { src: string | null }) {
  // The image is what is being described: its own alt text would only repeat the field beside it.
  return <div className="image-dialog__preview">{src ? <img src={src} alt="" /> : <span>No preview</span>}</div>
}

interface AltFieldsProps {
  alt: string
  decorative: boolean
  error: string | null
  onAlt(alt: string): void
  onDecorative(decorative: boolean): void
  autoFocus?: boolean
}

function AltFields({ alt, decorative, error, onAlt, onDecorative, autoFocus }: AltFieldsProps) {
  return (
    <>
      <TextField
        label="Alt text"
        hint={ALT_HINT}
        value={decorative ? '' : alt}
        disabled={decorative}
        error={decorative ? null : error}
        maxLength={1000}
        data-autofocus={autoFocus || undefined}
        onChange={(event) => onAlt(event.target.value)}
      />
      <label className="image-dialog__check">
        <input type="checkbox" checked={decorative} onChange={(event) => onDecorative(event.target.checked)} />
        Decorative image (no alt text)
      </label>
    </>
  )
}

// ── The selected image's properties ─────────────────────────────────────────────────────────────────────────────

interface ImagePropertiesDialogProps {
  editor: Editor
  importImage(file: File): Promise<LocalImage>
  onClose(): void
}

function ImagePropertiesDialog({ editor, importImage, onClose }: ImagePropertiesDialogProps) {
  // The image selected as the dialog opens; nothing else can change the post while it is open.
  const [selected] = useState(() => {
    const { selection } = editor.state
    return selection instanceof NodeSelection && selection.node.type.name === 'image' ? { position: selection.from, properties: propertiesOf(selection.node) } : null
  })
  useEffect(() => {
    if (!selected) onClose()
  }, [selected, onClose])
  if (!selected) return null
  return <ImagePropertiesForm editor={editor} position={selected.position} initial={selected.properties} importImage={importImage} onClose={onClose} />
}

interface ImagePropertiesFormProps extends ImagePropertiesDialogProps {
  position: number
  initial: ImageProperties
}

function ImagePropertiesForm({ editor, position, initial, importImage, onClose }: ImagePropertiesFormProps) {
  const [src, setSrc] = useState(initial.src)
  const [alt, setAlt] = useState(initial.alt ?? '')
  const [decorative, setDecorative] = useState(initial.alt === '')
  const [caption, setCaption] = useState(initial.caption ?? '')
  const [align, setAlign] = useState<ImageAlign | null>(initial.align)
  const [sized, setSized] = useState(initial.width !== null)
  const [width, setWidth] = useState(initial.width === null ? '' : String(initial.width))
  const [linked, setLinked] = useState(initial.link !== null)
  const [errors, setErrors] = useState<{ alt?: string; width?: string; replace?: string }>({})
  const [replacing, setReplacing] = useState(false)
  const picker = useRef<HTMLInputElement>(null)
  const alignName = useId()
  const sizeName = useId()
  const widthId = useId()
  const widthHintId = useId()

  function apply() {
    const widthValue = Number(width)
    const next: typeof errors = {}
    if (!decorative && alt.trim() === '') next.alt = ALT_MISSING
    if (sized && !(Number.isInteger(widthValue) && widthValue >= IMAGE_WIDTH_LIMITS.min && widthValue <= IMAGE_WIDTH_LIMITS.max)) {
      next.width = `Give a width in pixels from ${IMAGE_WIDTH_LIMITS.min} to ${IMAGE_WIDTH_LIMITS.max}.`
    }
    setErrors(next)
    if (next.alt || next.width) return
    // A link to the original follows the image when it is replaced; any other address stays as the post had it.
    const link = !linked ? null : initial.link !== null && initial.link !== initial.src ? initial.link : src
    const attrs = { src, alt: decorative ? '' : alt.trim(), caption: caption.trim() || null, align, width: sized ? widthValue : null, link }
    editor
      .chain()
      .focus()
      .command(({ tr }) => {
        const node = tr.doc.nodeAt(position)
        if (node?.type.name !== 'image') return false
        tr.setNodeMarkup(position, undefined, { ...node.attrs, ...attrs })
        tr.setSelection(NodeSelection.create(tr.doc, position))
        return true
      })
      .run()
    onClose()
  }

  async function replace(file: File) {
    setReplacing(true)
    try {
      const image = await importImage(file)
      rememberPreview(image)
      setSrc(`${LOCAL_MEDIA_SCHEME}${image.hash}`)
      setErrors(({ replace: _, ...rest }) => rest)
    } catch (error) {
      setErrors((current) => ({ ...current, replace: toApiError(error).message }))
    } finally {
      setReplacing(false)
    }
  }

  return (
    <Modal
      title="Image properties"
      className="image-dialog--properties"
      onCancel={onClose}
      onSubmit={apply}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" disabled={replacing}>
            Apply
          </Button>
        </>
      }
    >
      <div className="image-dialog__columns">
        <div className="image-dialog__side">
          <ImagePreview src={shownSourceOf(src)} />
          <Button disabled={replacing} onClick={() => picker.current?.click()}>
            {replacing ? 'Replacing…' : 'Replace image…'}
          </Button>
          {errors.replace && (
            <p className="image-dialog__error" role="alert">
              {errors.replace}
            </p>
          )}
          <input
            ref={picker}
            className="visually-hidden"
            type="file"
            accept="image/*"
            tabIndex={-1}
            aria-label="Choose the image that replaces this one"
            onChange={(event) => {
              const file = event.target.files?.[0]
              event.target.value = ''
              if (file) void replace(file)
            }}
          />
        </div>
        <div className="image-dialog__fields">
          <AltFields alt={alt} decorative={decorative} error={errors.alt ?? null} onAlt={setAlt} onDecorative={setDecorative} autoFocus />
          <TextField label="Caption" hint="Shown under the image; leave empty for none." value={caption} maxLength={2000} onChange={(event) => setCaption(event.target.value)} />
          <fieldset className="image-dialog__group">
            <legend>Alignment</legend>
            {IMAGE_ALIGNMENTS.map((option) => (
              <label key={option.value ?? 'none'} className="image-dialog__check">
                <input type="radio" name={alignName} checked={align === option.value} onChange={() => setAlign(option.value)} />
                {option.label}
              </label>
            ))}
          </fieldset>
          <fieldset className="image-dialog__group">
            <legend>Size</legend>
            <label className="image-dialog__check">
              <input type="radio" name={sizeName} checked={!sized} onChange={() => setSized(false)} />
              Original size, up to the weblog’s widest
            </label>
            <label className="image-dialog__check">
              <input type="radio" name={sizeName} checked={sized} onChange={() => setSized(true)} />
              A width of my choice
            </label>
            <div className="image-dialog__width">
              <label htmlFor={widthId}>Width in pixels</label>
              <input
                id={widthId}
                className="text-field__input"
                type="number"
                inputMode="numeric"
                min={IMAGE_WIDTH_LIMITS.min}
                max={IMAGE_WIDTH_LIMITS.max}
                value={width}
                disabled={!sized}
                aria-invalid={errors.width ? true : undefined}
                aria-describedby={widthHintId}
                onChange={(event) => setWidth(event.target.value)}
              />
            </div>
            <p className={errors.width ? 'image-dialog__error' : 'image-dialog__hint'} id={widthHintId}>
              {errors.width ?? 'The image is scaled down to this width before it is uploaded; the weblog’s widest (in its details) still applies.'}
            </p>
          </fieldset>
          <label className="image-dialog__check">
            <input type="checkbox" checked={linked} onChange={(event) => setLinked(event.target.checked)} />
            Link to the original (uploaded too, at full size)
          </label>
        </div>
      </div>
    </Modal>
  )
}

// ── Images without alt text, found at publish ───────────────────────────────────────────────────────────────────

interface MissingAltDialogProps {
  images: UndescribedImage[]
  /** `index`: the image's place among those listed. */
  onFix(position: number, index: number): void
  onPublishAnyway(): void
  onCancel(): void
}

function MissingAltDialog({ images, onFix, onPublishAnyway, onCancel }: MissingAltDialogProps) {
  const count = images.length === 1 ? 'An image has' : `${images.length} images have`
  return (
    <Modal
      title={`${count} no alt text`}
      className="image-dialog--missing"
      onCancel={onCancel}
      actions={
        <>
          <Button onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button variant="primary" onClick={onPublishAnyway}>
            Publish anyway
          </Button>
        </>
      }
    >
      <p className="image-dialog__hint">Readers who cannot see these images will not know what they show. Describe them, or mark them as decorative.</p>
      <ul className="image-dialog__missing">
        {images.map((image, index) => (
          <li key={image.position}>
            <ImagePreview src={image.shown} />
            <Button onClick={() => onFix(image.position, index)}>{`Describe image ${index + 1}…`}</Button>
          </li>
        ))}
      </ul>
    </Modal>
  )
}
