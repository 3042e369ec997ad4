import { useEditorState, type Editor } from '@tiptap/react'
import { redoDepth, undoDepth } from '@tiptap/pm/history'
import { NodeSelection } from '@tiptap/pm/state'
import type { KeyboardEvent, ReactNode } from 'react'
import { shortcut } from './keys'
import './toolbar.css'

type BlockStyle = 'paragraph' | 'heading1' | 'heading2' | 'heading3' | 'heading4' | 'codeBlock' | 'other'

const BLOCK_STYLES: { value: Exclude<BlockStyle, 'other'>; label: string }[] = [
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'heading1', label: 'Heading 1' },
  { value: 'heading2', label: 'Heading 2' },
  { value: 'heading3', label: 'Heading 3' },
  { value: 'heading4', label: 'Heading 4' },
  { value: 'codeBlock', label: 'Code block' },
]

interface Formatting {
  block: BlockStyle
  bold: boolean
  italic: boolean
  strike: boolean
  code: boolean
  link: boolean
  bulletList: boolean
  orderedList: boolean
  blockquote: boolean
  canUndo: boolean
  canRedo: boolean
  imageSelected: boolean
}

/**
 * What the toolbar shows, read from the selection's ends and their ancestors only: it runs on every keystroke, so it
 * never walks the document (a selection's marks are checked across the selection alone).
 */
function formattingOf({ state }: Editor): Formatting {
  const { selection, schema, doc } = state
  const { $from, empty, from, to } = selection
  const marksHere = empty ? (state.storedMarks ?? $from.marks()) : null
  const hasMark = (name: string) => {
    const type = schema.marks[name]
    if (!type) return false
    return marksHere ? type.isInSet(marksHere) !== undefined : doc.rangeHasMark(from, to, type)
  }
  const ancestors = new Set<string>()
  for (let depth = $from.depth; depth > 0; depth--) ancestors.add($from.node(depth).type.name)
  const parent = $from.parent
  let block: BlockStyle = 'other'
  if (parent.type.name === 'paragraph') block = 'paragraph'
  else if (parent.type.name === 'codeBlock') block = 'codeBlock'
  else if (parent.type.name === 'heading' && [1, 2, 3, 4].includes(parent.attrs['level'] as number)) block = `heading${parent.attrs['level'] as 1 | 2 | 3 | 4}`
  return {
    block,
    bold: hasMark('bold'),
    italic: hasMark('italic'),
    strike: hasMark('strike'),
    code: hasMark('code'),
    link: hasMark('link'),
    bulletList: ancestors.has('bulletList'),
    orderedList: ancestors.has('orderedList'),
    blockquote: ancestors.has('blockquote'),
    canUndo: undoDepth(state) > 0,
    canRedo: redoDepth(state) > 0,
    imageSelected: selection instanceof NodeSelection && selection.node.type.name === 'image',
  }
}

export interface ToolbarProps {
  editor: Editor
  editable: boolean
  /** The HTML source is shown instead of the text: formatting waits. */
  sourceShown: boolean
  onLink(): void
  onImage(): void
  /** Alt text, caption, alignment, size and link of the selected image. */
  onImageProperties(): void
}

export function Toolbar({ editor, editable, sourceShown, onLink, onImage, onImageProperties }: ToolbarProps) {
  const formatting = useEditorState({ editor, selector: ({ editor }) => formattingOf(editor) })
  const chain = () => editor.chain().focus()
  const disabled = sourceShown || !editable

  function setBlock(style: BlockStyle) {
    if (style === 'paragraph') chain().setParagraph().run()
    else if (style === 'codeBlock') chain().setCodeBlock().run()
    else if (style.startsWith('heading')) chain().setHeading({ level: Number(style.slice('heading'.length)) as 1 | 2 | 3 | 4 }).run()
  }

  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting" onKeyDown={moveFocusWithArrows}>
      <select
        className="toolbar__block"
        aria-label="Text style"
        value={formatting.block}
        disabled={disabled}
        onChange={(event) => setBlock(event.target.value as BlockStyle)}
      >
        {formatting.block === 'other' && <option value="other">—</option>}
        {BLOCK_STYLES.map((style) => (
          <option key={style.value} value={style.value}>
            {style.label}
          </option>
        ))}
      </select>
      <span className="toolbar__separator" aria-hidden="true" />
      <ToolbarButton label="Bold" keys="Mod-B" pressed={formatting.bold} disabled={disabled} onClick={() => chain().toggleBold().run()}>
        <span className="toolbar__letter toolbar__letter--bold">B</span>
      </ToolbarButton>
      <ToolbarButton label="Italic" keys="Mod-I" pressed={formatting.italic} disabled={disabled} onClick={() => chain().toggleItalic().run()}>
        <span className="toolbar__letter toolbar__letter--italic">I</span>
      </ToolbarButton>
      <ToolbarButton label="Strikethrough" keys="Mod-Shift-S" pressed={formatting.strike} disabled={disabled} onClick={() => chain().toggleStrike().run()}>
        <span className="toolbar__letter toolbar__letter--strike">S</span>
      </ToolbarButton>
      <ToolbarButton label="Code" keys="Mod-E" pressed={formatting.code} disabled={disabled} onClick={() => chain().toggleCode().run()}>
        <ToolbarIcon path="M7 6 3 10l4 4M13 6l4 4-4 4" />
      </ToolbarButton>
      <ToolbarButton label="Link" keys="Mod-K" pressed={formatting.link} disabled={disabled} onClick={onLink}>
        <ToolbarIcon path="M8.5 11.5a3 3 0 0 0 4.2 0l2.6-2.6a3 3 0 0 0-4.2-4.2l-.9.9M11.5 8.5a3 3 0 0 0-4.2 0l-2.6 2.6a3 3 0 0 0 4.2 4.2l.9-.9" />
      </ToolbarButton>
      <span className="toolbar__separator" aria-hidden="true" />
      <ToolbarButton label="Bulleted list" keys="Mod-Shift-8" pressed={formatting.bulletList} disabled={disabled} onClick={() => chain().toggleBulletList().run()}>
        <ToolbarIcon path="M8 5.5h9M8 10h9M8 14.5h9M3.5 5.5h.01M3.5 10h.01M3.5 14.5h.01" />
      </ToolbarButton>
      <ToolbarButton label="Numbered list" keys="Mod-Shift-7" pressed={formatting.orderedList} disabled={disabled} onClick={() => chain().toggleOrderedList().run()}>
        <ToolbarIcon path="M8 5.5h9M8 10h9M8 14.5h9M3 4.5l1-.5v3.5M3 9.2c.3-.5 1.7-.6 1.8.2.1.7-1.8 1.6-1.8 2.1h2M3 13.3c.4-.4 1.8-.4 1.8.4 0 .6-.8.7-.8.7s.9 0 .9.7c0 .8-1.5.9-1.9.4" />
      </ToolbarButton>
      <ToolbarButton label="Quote" keys="Mod-Shift-B" pressed={formatting.blockquote} disabled={disabled} onClick={() => chain().toggleBlockquote().run()}>
        <ToolbarIcon path="M4 4.5v11M8 6.5h9M8 10h9M8 13.5h6" />
      </ToolbarButton>
      <ToolbarButton label="Code block" keys="Mod-Alt-C" pressed={formatting.block === 'codeBlock'} disabled={disabled} onClick={() => chain().toggleCodeBlock().run()}>
        <ToolbarIcon path="M3 4h14v12H3V4Zm4 4-2 2 2 2m6-4 2 2-2 2m-2-5-2 6" />
      </ToolbarButton>
      <ToolbarButton label="Image…" disabled={disabled} onClick={onImage}>
        <ToolbarIcon path="M3 5h14v10H3V5Zm0 8 4-4 3 3 2-2 5 5M12.5 8.5h.01" />
      </ToolbarButton>
      <ToolbarButton label="Image properties…" keys="Alt-Enter" disabled={disabled || !formatting.imageSelected} onClick={onImageProperties}>
        <ToolbarIcon path="M3 5h9M3 10h6M3 15h9M14 8.5a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm0-2v2m0 4v2m3-4h-1.5m-3 0H11" />
      </ToolbarButton>
      <span className="toolbar__separator" aria-hidden="true" />
      <ToolbarButton label="Undo" keys="Mod-Z" disabled={disabled || !formatting.canUndo} onClick={() => chain().undo().run()}>
        <ToolbarIcon path="M7.5 5 4 8.5 7.5 12M4.5 8.5h7a4 4 0 0 1 0 8H9" />
      </ToolbarButton>
      <ToolbarButton label="Redo" keys="Mod-Shift-Z" disabled={disabled || !formatting.canRedo} onClick={() => chain().redo().run()}>
        <ToolbarIcon path="M12.5 5 16 8.5 12.5 12M15.5 8.5h-7a4 4 0 0 0 0 8H11" />
      </ToolbarButton>
    </div>
  )
}

interface ToolbarButtonProps {
  label: string
  keys?: string
  pressed?: boolean
  disabled?: boolean
  onClick(): void
  children: ReactNode
}

function ToolbarButton({ label, keys, pressed, disabled, onClick, children }: ToolbarButtonProps) {
  return (
    <button
      type="button"
      className="toolbar__button"
      aria-label={label}
      aria-pressed={pressed}
      aria-keyshortcuts={keys ? shortcut(keys).aria : undefined}
      title={keys ? `${label} (${shortcut(keys).shown})` : label}
      disabled={disabled}
      // Keeps the text's selection: the command acts on it, and the caret stays where it was.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  )
}

function ToolbarIcon({ path }: { path: string }) {
  return (
    <svg className="toolbar__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  )
}

/** Left and right arrows move between the toolbar's controls, as in any toolbar. */
function moveFocusWithArrows(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
  if (event.target instanceof HTMLSelectElement) return
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>('button:not(:disabled), select:not(:disabled)')]
  const at = controls.indexOf(event.target as HTMLElement)
  if (at === -1) return
  event.preventDefault()
  controls[(at + (event.key === 'ArrowRight' ? 1 : controls.length - 1)) % controls.length]?.focus()
}
