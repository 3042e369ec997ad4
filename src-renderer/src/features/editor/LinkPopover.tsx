import type { Editor } from '@tiptap/react'
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react'
import { Button } from '../../ui'
import { focusTextNow } from './caret'

export interface LinkPopoverProps {
  editor: Editor
  /** What the link goes on: the selection when the popover was opened. */
  range: { from: number; to: number }
  /** Where it opens, in pixels from the editor frame's top left: under the selection. */
  at: { top: number; left: number }
  onClose(): void
}

/** Adds, changes or removes the link on the selection (or at the caret); Escape or a click elsewhere closes it. */
export function LinkPopover({ editor, range, at, onClose }: LinkPopoverProps) {
  const existing = (editor.getAttributes('link')['href'] as string | undefined) ?? ''
  const [address, setAddress] = useState(existing)
  const [problem, setProblem] = useState<string | null>(null)
  const inputId = useId()
  const problemId = useId()

  function close() {
    onClose()
    focusTextNow(editor.view)
  }

  function apply(event: FormEvent) {
    event.preventDefault()
    const href = linkAddress(address)
    if (href === null) {
      setProblem('Enter a web address such as https://example.com, a mailto: address, or a path on the weblog such as /about.')
      return
    }
    const chain = editor.chain().setTextSelection(range)
    if (range.from === range.to && !editor.isActive('link')) {
      // Nothing selected: the address itself becomes the link's text.
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run()
    } else {
      chain.extendMarkRange('link').setLink({ href }).run()
    }
    close()
  }

  function remove() {
    editor.chain().setTextSelection(range).extendMarkRange('link').unsetLink().run()
    close()
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return
    event.preventDefault()
    event.stopPropagation()
    close()
  }

  return (
    <form
      className="link-popover"
      role="dialog"
      aria-label={existing ? 'Edit link' : 'Add link'}
      style={{ top: at.top, left: at.left }}
      onSubmit={apply}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onClose()
      }}
    >
      <label className="link-popover__label" htmlFor={inputId}>
        Link address
      </label>
      <input
        id={inputId}
        className="link-popover__input"
        type="text"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://"
        // The popover opens on a shortcut or a click, to type an address at once.
        autoFocus
        value={address}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => {
          setAddress(event.target.value)
          setProblem(null)
        }}
      />
      {problem && (
        <p className="link-popover__problem" id={problemId}>
          {problem}
        </p>
      )}
      <div className="link-popover__actions">
        {existing && (
          <Button variant="quiet" onClick={remove}>
            Remove link
          </Button>
        )}
        <Button variant="secondary" onClick={close}>
          Cancel
        </Button>
        <Button variant="primary" type="submit">
          {existing ? 'Update' : 'Add link'}
        </Button>
      </div>
    </form>
  )
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:'])

/** The address as a link's href: a full URL of a scheme a weblog may link to, a path, or a bare domain (https). */
export function linkAddress(typed: string): string | null {
  const address = typed.trim()
  if (address === '' || /\s/.test(address)) return null
  if (/^[/#?]/.test(address)) return address
  if (/^[a-z][a-z0-9+.-]*:/i.test(address)) {
    try {
      return ALLOWED_SCHEMES.has(new URL(address).protocol) ? address : null
    } catch {
      return null
    }
  }
  return /^[^/]+\.[a-z]{2,}(?:[/:?#]|$)/i.test(address) ? `https://${address}` : null
}
