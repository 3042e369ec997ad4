// CodeMirror 6 for the HTML source view, in its own chunk: loaded when the source view first opens, never at startup.
// It is drawn inside a shadow root: CodeMirror styles itself through a <style> element in a document, which the
// page's CSP refuses, and through a constructed style sheet in a shadow root, which the CSP allows. The app's theme
// reaches it through CSS custom properties, which cross the shadow boundary (source-editor.css sets them).
import { defaultKeymap, history, historyKeymap, indentWithTab, simplifySelection, temporarilySetTabFocusMode } from '@codemirror/commands'
import { html } from '@codemirror/lang-html'
import { HighlightStyle, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language'
import { Compartment, EditorState } from '@codemirror/state'
import { EditorView, drawSelection, keymap } from '@codemirror/view'
import { tags } from '@lezer/highlight'

export interface CodeEditorOptions {
  text: string
  readOnly: boolean
  /** What assistive technology calls the text, and a sentence it reads after it. */
  label: string
  description: string
  onChange(text: string): void
}

export interface CodeEditor {
  focus(): void
  setReadOnly(readOnly: boolean): void
  destroy(): void
}

/** The app's colours, by name, as source-editor.css sets them for light and dark. */
const highlightStyle = HighlightStyle.define([
  { tag: [tags.tagName, tags.angleBracket], color: 'var(--source-tag)' },
  { tag: tags.attributeName, color: 'var(--source-attribute)' },
  { tag: tags.attributeValue, color: 'var(--source-value)' },
  { tag: [tags.character, tags.processingInstruction], color: 'var(--source-entity)' },
  { tag: [tags.comment, tags.documentMeta], color: 'var(--source-comment)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--source-invalid)', textDecoration: 'underline wavy' },
])

const theme = EditorView.theme({
  '&': { minHeight: '60vh', color: 'var(--text)', backgroundColor: 'var(--field)', fontSize: 'var(--text-m)' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55', overflow: 'visible' },
  '.cm-content': { padding: '0.9rem 0', caretColor: 'var(--text)' },
  '.cm-line': { padding: '0 1rem' },
  '&.cm-focused': { outline: 'none' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--source-selection)',
  },
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--accent-soft)', outline: '1px solid var(--border-strong)' },
})

/** Opens the editor on `host`, in a shadow root of its own. */
export function openCodeEditor(host: HTMLElement, options: CodeEditorOptions): CodeEditor {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  const editable = new Compartment()
  const editableState = (readOnly: boolean) => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]
  const view = new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of('  '),
        html({ autoCloseTags: true }),
        syntaxHighlighting(highlightStyle),
        EditorView.lineWrapping,
        theme,
        // Tab indents; Escape then Tab (or Ctrl+M / Shift+Alt+M to stay so) moves the focus on, as CodeMirror advises.
        keymap.of([
          { key: 'Escape', run: (view) => (simplifySelection(view), temporarilySetTabFocusMode(view)) },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-description': options.description }),
        editable.of(editableState(options.readOnly)),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString())
        }),
      ],
    }),
  })
  return {
    focus: () => view.focus(),
    setReadOnly: (readOnly) => view.dispatch({ effects: editable.reconfigure(editableState(readOnly)) }),
    destroy: () => view.destroy(),
  }
}
