// The caret drawn and the selection ProseMirror acts on are one. Keys that move the caret across lines, pages or the
// whole post are handled here, through ProseMirror, at the moment they are pressed: left to the browser, the caret
// moved at once but ProseMirror learnt of it only at the next `selectionchange`, and a key typed before that acted on
// the old selection (an image clicked a moment earlier was replaced by the text typed after Ctrl+End). Typed
// characters go in the same way, through ProseMirror at its selection.
import { Extension } from '@tiptap/react'
import { keydownHandler } from '@tiptap/pm/keymap'
import type { ResolvedPos } from '@tiptap/pm/model'
import { Plugin, PluginKey, Selection, TextSelection, type Command } from '@tiptap/pm/state'
import type { EditorView } from '@tiptap/pm/view'
import { shortcuts } from '../../../../src-shared/contract'
import { isMac } from '../../lib/keys'

export interface CaretKeysOptions {
  /** What PageUp and PageDown scroll, and by how much: the height of the text visible in it, in pixels. */
  pageOf(view: EditorView): { scroller: Element; height: number }
  /** Scrolls the caret into view now: a scroll to it may still wait for the next frame when a key comes. */
  revealCaret(view: EditorView): void
}

export const CaretKeys = Extension.create<CaretKeysOptions>({
  name: 'caretKeys',
  // Before every other key handler: they all act on the selection, which must first be the one drawn.
  priority: 1000,
  addOptions() {
    return {
      pageOf: () => ({ scroller: document.scrollingElement ?? document.documentElement, height: window.innerHeight }),
      // ProseMirror's own scrolling to the selection is done at once: nothing waits.
      revealCaret: () => {},
    }
  },
  addProseMirrorPlugins() {
    const moveKeys = keydownHandler(caretKeymap(this.options))
    return [
      new Plugin({
        key: new PluginKey('caretKeys'),
        props: {
          handleKeyDown(view, event) {
            catchUpWithTheCaretDrawn(view)
            return moveKeys(view, event)
          },
          handleKeyPress: typeAtTheSelection,
        },
      }),
    ]
  },
})

function caretKeymap(options: CaretKeysOptions): Record<string, Command> {
  const keys: Record<string, Command> = {}
  const both = (key: string, move: (extend: boolean) => Command) => {
    keys[key] = move(false)
    keys[`Shift-${key}`] = move(true)
  }
  both(shortcuts.postStart.keys, (extend) => toPostEdge(-1, extend))
  both(shortcuts.postEnd.keys, (extend) => toPostEdge(1, extend))
  both('Home', (extend) => toLineEdge(-1, extend))
  both('End', (extend) => toLineEdge(1, extend))
  both('PageUp', (extend) => byPage(-1, extend, options))
  both('PageDown', (extend) => byPage(1, extend, options))
  if (isMac) {
    both('Mod-ArrowUp', (extend) => toPostEdge(-1, extend))
    both('Mod-ArrowDown', (extend) => toPostEdge(1, extend))
    both('Mod-ArrowLeft', (extend) => toLineEdge(-1, extend))
    both('Mod-ArrowRight', (extend) => toLineEdge(1, extend))
  }
  return keys
}

/** Which way a key moves the caret: back towards the start (-1) or on towards the end (1). */
type Direction = -1 | 1

/** A selection from the current one's anchor to `$head` when extending, or a caret at `$head`. */
function selectTo($head: ResolvedPos, extend: boolean, view: EditorView): Selection {
  const { selection } = view.state
  if (extend) return TextSelection.between(selection.$anchor, $head)
  return $head.parent.inlineContent ? TextSelection.create(view.state.doc, $head.pos) : Selection.near($head)
}

/** Ctrl/Cmd+Home and End: the start or the end of the post. */
function toPostEdge(direction: Direction, extend: boolean): Command {
  return (state, dispatch, view) => {
    if (!view) return false
    const edge = direction < 0 ? Selection.atStart(state.doc) : Selection.atEnd(state.doc)
    dispatch?.(state.tr.setSelection(selectTo(edge.$head, extend, view)).scrollIntoView())
    return true
  }
}

/**
 * Home and End: the start or the end of the line the caret is on, as the browser has laid it out. The browser finds
 * the line's edge (wrapping, right-to-left text), in this handler, and ProseMirror takes the caret from there at once.
 * An image or gap selected is left on the side the key points to.
 */
function toLineEdge(direction: Direction, extend: boolean): Command {
  return (state, dispatch, view) => {
    if (!view) return false
    const { selection } = state
    if (!(selection instanceof TextSelection)) {
      dispatch?.(state.tr.setSelection(besideSelection(selection, direction)).scrollIntoView())
      return true
    }
    const drawn = view.dom.ownerDocument.getSelection()
    if (!drawn) return false
    drawn.modify(extend ? 'extend' : 'move', direction < 0 ? 'backward' : 'forward', 'lineboundary')
    const moved = selectionInTextAt(view, drawn)
    if (moved) dispatch?.(state.tr.setSelection(moved).scrollIntoView())
    return true
  }
}

/** The nearest place for the caret before or after a selected image (or whatever else is selected that is not text). */
function besideSelection(selection: Selection, direction: Direction): Selection {
  return Selection.near(direction < 0 ? selection.$from : selection.$to, direction)
}

/**
 * PageUp and PageDown: the pane scrolls a page, and the caret goes where the text under its old place on screen now
 * is, as the browser does; at the first or last page, to the start or end of the post. The caret is brought into view
 * first: a key pressed just before (Ctrl+Home, typing) may have moved it where the pane has not yet scrolled, and
 * measured off screen, PageDown scrolled only what was left of the pane and put the caret at the top of the post.
 */
function byPage(direction: Direction, extend: boolean, { pageOf, revealCaret }: CaretKeysOptions): Command {
  return (state, dispatch, view) => {
    if (!view) return false
    revealCaret(view)
    const caret = view.coordsAtPos(state.selection.head)
    const { scroller, height } = pageOf(view)
    const before = scroller.scrollTop
    scroller.scrollTop += direction * height
    const scrolled = scroller.scrollTop !== before
    const text = view.dom.getBoundingClientRect()
    const left = Math.min(Math.max(caret.left, text.left + 1), text.right - 1)
    const landed = scrolled ? view.posAtCoords({ left, top: (caret.top + caret.bottom) / 2 }) : null
    const $head = landed ? state.doc.resolve(landed.pos) : (direction < 0 ? Selection.atStart(state.doc) : Selection.atEnd(state.doc)).$head
    dispatch?.(state.tr.setSelection(selectTo($head, extend, view)))
    return true
  }
}

/**
 * Where the page draws the caret (or the selected text), as a ProseMirror selection; null when either end is not in
 * text, such as around a selected image, which ProseMirror draws that way itself.
 */
function selectionInTextAt(view: EditorView, drawn: globalThis.Selection): TextSelection | null {
  const { anchorNode, focusNode } = drawn
  if (!anchorNode || !focusNode || !view.dom.contains(anchorNode) || !view.dom.contains(focusNode)) return null
  const { doc } = view.state
  const $anchor = doc.resolve(view.posAtDOM(anchorNode, drawn.anchorOffset))
  const $head = doc.resolve(view.posAtDOM(focusNode, drawn.focusOffset))
  if (!$anchor.parent.inlineContent || !$head.parent.inlineContent) return null
  return new TextSelection($anchor, $head)
}

/**
 * Keys ProseMirror leaves to the browser (arrows within a line, a mouse's selection being extended) move the caret
 * before ProseMirror hears of it. Before a key acts, the selection ProseMirror holds becomes the one drawn, if they
 * differ: what a key deletes, replaces or links is always what the writer sees selected.
 */
export function catchUpWithTheCaretDrawn(view: EditorView): void {
  if (view.composing || !view.hasFocus()) return
  const drawn = view.dom.ownerDocument.getSelection()
  const selection = drawn && selectionInTextAt(view, drawn)
  if (!selection || selection.eq(view.state.selection)) return
  view.dispatch(view.state.tr.setSelection(selection))
}

/**
 * Puts the focus in the text now, with the caret at the start when `atStart`. TipTap's focus command waits for the
 * next frame, and a key typed in between went to whatever had the focus before.
 */
export function focusTextNow(view: EditorView, { atStart = false } = {}): void {
  if (atStart) view.dispatch(view.state.tr.setSelection(Selection.atStart(view.state.doc)).scrollIntoView())
  view.focus()
}

/**
 * A typed character goes in through ProseMirror, at the selection it holds (the one drawn, since the key's keydown),
 * as ProseMirror itself does whenever something is selected. Left to the browser, its editing command inserted the
 * character, laying the page out to do so, and ProseMirror then read the change back from the page. Composition (input
 * methods, dead keys) stays the browser's.
 */
function typeAtTheSelection(view: EditorView, event: KeyboardEvent): boolean {
  if (view.composing || event.isComposing || !event.charCode || (event.ctrlKey && !event.altKey) || event.metaKey) return false
  const text = String.fromCodePoint(event.charCode)
  if (text === '\r' || text === '\n') return false
  const { from, to } = view.state.selection
  const insert = () => view.state.tr.insertText(text).scrollIntoView()
  if (!view.someProp('handleTextInput', (handle) => handle(view, from, to, text, insert))) view.dispatch(insert())
  return true
}
