import { useEditorState, type Editor } from '@tiptap/react'
import { redoDepth, undoDepth } from '@tiptap/pm/history'
import { NodeSelection } from '@tiptap/pm/state'
import { useLayoutEffect, useRef, useState } from 'react'
import { shortcuts } from '../../../../src-shared/contract'
import { shortcut } from '../../lib/keys'
import { MenuButton, ROVING_GROUP, ROVING_ITEM, classNames, useRovingFocus } from '../../ui'
import { BarButton, BarIcon } from './BarButton'
import { fittingCount } from './overflow'
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

/** One of the toolbar's buttons: drawn in the bar while it fits, and as an item of the More menu once it does not. */
interface ToolbarCommand {
  kind: 'command'
  id: string
  label: string
  keys?: string
  pressed?: boolean
  disabled: boolean
  icon: { letter: 'bold' | 'italic' | 'strike' } | { path: string }
  run(): void
}

type ToolbarEntry = { kind: 'style' } | { kind: 'separator'; id: string } | ToolbarCommand

/**
 * The formatting toolbar: one Tab stop, the arrow keys, Home and End move inside it (WAI-ARIA's toolbar pattern), and
 * what does not fit the pane's width goes into a More menu at its end, so it never wraps.
 */
export function Toolbar({ editor, editable, sourceShown, onLink, onImage, onImageProperties }: ToolbarProps) {
  const formatting = useEditorState({ editor, selector: ({ editor }) => formattingOf(editor) })
  const chain = () => editor.chain().focus()
  const disabled = sourceShown || !editable
  const bar = useRef<HTMLDivElement>(null)
  const roving = useRovingFocus(bar, 'horizontal')
  const [fitting, setFitting] = useState(Number.POSITIVE_INFINITY)

  function setBlock(style: BlockStyle) {
    if (style === 'paragraph') chain().setParagraph().run()
    else if (style === 'codeBlock') chain().setCodeBlock().run()
    else if (style.startsWith('heading')) chain().setHeading({ level: Number(style.slice('heading'.length)) as 1 | 2 | 3 | 4 }).run()
  }

  const command = (id: keyof typeof shortcuts | 'image', entry: Omit<ToolbarCommand, 'kind' | 'id' | 'label' | 'keys'> & { label?: string }): ToolbarCommand =>
    id === 'image'
      ? { kind: 'command', id, label: entry.label ?? 'Image…', ...entry }
      : { kind: 'command', id, label: entry.label ?? shortcuts[id].label, keys: shortcuts[id].keys, ...entry }

  const entries: ToolbarEntry[] = [
    { kind: 'style' },
    { kind: 'separator', id: 'marks' },
    command('bold', { pressed: formatting.bold, disabled, icon: { letter: 'bold' }, run: () => chain().toggleBold().run() }),
    command('italic', { pressed: formatting.italic, disabled, icon: { letter: 'italic' }, run: () => chain().toggleItalic().run() }),
    command('strike', { pressed: formatting.strike, disabled, icon: { letter: 'strike' }, run: () => chain().toggleStrike().run() }),
    command('code', { pressed: formatting.code, disabled, icon: { path: 'M7 6 3 10l4 4M13 6l4 4-4 4' }, run: () => chain().toggleCode().run() }),
    command('insertLink', {
      label: 'Link',
      pressed: formatting.link,
      disabled,
      icon: { path: 'M8.5 11.5a3 3 0 0 0 4.2 0l2.6-2.6a3 3 0 0 0-4.2-4.2l-.9.9M11.5 8.5a3 3 0 0 0-4.2 0l-2.6 2.6a3 3 0 0 0 4.2 4.2l.9-.9' },
      run: onLink,
    }),
    { kind: 'separator', id: 'blocks' },
    command('bulletList', {
      pressed: formatting.bulletList,
      disabled,
      icon: { path: 'M8 5.5h9M8 10h9M8 14.5h9M3.5 5.5h.01M3.5 10h.01M3.5 14.5h.01' },
      run: () => chain().toggleBulletList().run(),
    }),
    command('orderedList', {
      pressed: formatting.orderedList,
      disabled,
      icon: { path: 'M8 5.5h9M8 10h9M8 14.5h9M3 4.5l1-.5v3.5M3 9.2c.3-.5 1.7-.6 1.8.2.1.7-1.8 1.6-1.8 2.1h2M3 13.3c.4-.4 1.8-.4 1.8.4 0 .6-.8.7-.8.7s.9 0 .9.7c0 .8-1.5.9-1.9.4' },
      run: () => chain().toggleOrderedList().run(),
    }),
    command('quote', { pressed: formatting.blockquote, disabled, icon: { path: 'M4 4.5v11M8 6.5h9M8 10h9M8 13.5h6' }, run: () => chain().toggleBlockquote().run() }),
    command('codeBlock', {
      pressed: formatting.block === 'codeBlock',
      disabled,
      icon: { path: 'M3 4h14v12H3V4Zm4 4-2 2 2 2m6-4 2 2-2 2m-2-5-2 6' },
      run: () => chain().toggleCodeBlock().run(),
    }),
    command('image', { disabled, icon: { path: 'M3 5h14v10H3V5Zm0 8 4-4 3 3 2-2 5 5M12.5 8.5h.01' }, run: onImage }),
    command('imageProperties', {
      label: 'Image properties…',
      disabled: disabled || !formatting.imageSelected,
      icon: { path: 'M3 5h9M3 10h6M3 15h9M14 8.5a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm0-2v2m0 4v2m3-4h-1.5m-3 0H11' },
      run: onImageProperties,
    }),
    { kind: 'separator', id: 'history' },
    command('undo', { disabled: disabled || !formatting.canUndo, icon: { path: 'M7.5 5 4 8.5 7.5 12M4.5 8.5h7a4 4 0 0 1 0 8H9' }, run: () => chain().undo().run() }),
    command('redo', { disabled: disabled || !formatting.canRedo, icon: { path: 'M12.5 5 16 8.5 12.5 12M15.5 8.5h-7a4 4 0 0 0 0 8H11' }, run: () => chain().redo().run() }),
  ]

  // Measured whenever the bar's width changes: overflowed entries keep their size (they are only hidden), so the
  // widths stay known, and hiding them does not change the bar's width.
  useLayoutEffect(() => {
    const element = bar.current
    if (!element) return
    const measure = () => {
      const style = getComputedStyle(element)
      const gap = parseFloat(style.columnGap) || 0
      const outerWidth = (element: Element) => {
        const margins = getComputedStyle(element)
        return element.getBoundingClientRect().width + parseFloat(margins.marginLeft) + parseFloat(margins.marginRight) + gap
      }
      const widths = [...element.querySelectorAll(':scope > [data-toolbar-entry]')].map(outerWidth)
      const more = element.querySelector(':scope > [data-toolbar-more]')
      const available = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      setFitting(fittingCount(widths, available, more ? outerWidth(more) : 0))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  // A separator never ends the bar.
  let shown = Math.max(1, fitting)
  while (shown > 1 && shown < entries.length && entries[shown - 1]!.kind === 'separator') shown--
  const overflowed = entries.slice(shown).filter((entry): entry is ToolbarCommand => entry.kind === 'command')

  return (
    <div
      {...ROVING_GROUP}
      ref={bar}
      className="toolbar"
      role="toolbar"
      aria-label="Formatting"
      aria-orientation="horizontal"
      onKeyDown={roving.onKeyDown}
      onFocus={roving.onFocus}
    >
      {entries.map((entry, index) => {
        const hidden = index >= shown
        const entryProps = { 'data-toolbar-entry': '', ...(hidden && { 'data-overflowed': '' }) }
        if (entry.kind === 'style') {
          return (
            <select
              {...ROVING_ITEM}
              {...entryProps}
              key="style"
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
          )
        }
        if (entry.kind === 'separator') return <span {...entryProps} key={entry.id} className="toolbar__separator" aria-hidden="true" />
        return (
          <BarButton
            {...ROVING_ITEM}
            {...entryProps}
            key={entry.id}
            label={entry.label}
            keys={entry.keys}
            pressed={entry.pressed}
            disabled={entry.disabled}
            keepsSelection
            onClick={entry.run}
          >
            {'letter' in entry.icon ? (
              <span className={`toolbar__letter toolbar__letter--${entry.icon.letter}`}>{entry.icon.letter[0]!.toUpperCase()}</span>
            ) : (
              <BarIcon path={entry.icon.path} />
            )}
          </BarButton>
        )
      })}
      <span className={classNames('toolbar__more', overflowed.length === 0 && 'toolbar__more--unused')} data-toolbar-more="">
        <MenuButton
          {...ROVING_ITEM}
          className="toolbar__button"
          label="More formatting"
          keepFocus
          items={overflowed.map((entry) => ({
            id: entry.id,
            label: entry.label,
            keysShown: entry.keys ? shortcut(entry.keys).shown : undefined,
            checked: entry.pressed,
            disabled: entry.disabled,
            onSelect: entry.run,
          }))}
        >
          <BarIcon path="M5 10h.01M10 10h.01M15 10h.01" />
        </MenuButton>
      </span>
    </div>
  )
}
