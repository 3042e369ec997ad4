// The HTML source view: a code editor (CodeMirror, code-editor.ts) loaded the first time the view opens.
import { useEffect, useRef, useState } from 'react'
import { Alert, Spinner } from '../../ui'
import type { CodeEditor } from './code-editor'
import { isMac } from '../../lib/keys'
import './source-editor.css'

export interface SourceEditorProps {
  /** The text it opens with; what is typed afterwards is told through `onChange`. */
  text: string
  readOnly: boolean
  onChange(text: string): void
}

const KEYS_HINT = `Tab indents. To move on from the HTML, press Esc then Tab, or ${isMac ? 'Shift+Alt+M' : 'Ctrl+M'} to make Tab move on.`

export function SourceEditor({ text, readOnly, onChange }: SourceEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<CodeEditor | null>(null)
  const [opening, setOpening] = useState<'loading' | 'open' | Error>('loading')
  const latest = useRef({ text, readOnly, onChange })
  useEffect(() => {
    latest.current = { text, readOnly, onChange }
  })

  useEffect(() => {
    let current = true
    import('./code-editor').then(
      ({ openCodeEditor }) => {
        if (!current) return
        const { text, readOnly } = latest.current
        editor.current = openCodeEditor(host.current!, {
          text,
          readOnly,
          label: 'HTML source',
          description: KEYS_HINT,
          onChange: (changed) => latest.current.onChange(changed),
        })
        setOpening('open')
        // Opened by its button or shortcut to edit the HTML: the caret goes there.
        editor.current.focus()
      },
      (error: unknown) => current && setOpening(error instanceof Error ? error : new Error(String(error))),
    )
    return () => {
      current = false
      editor.current?.destroy()
      editor.current = null
    }
  }, [])

  useEffect(() => editor.current?.setReadOnly(readOnly), [readOnly])

  return (
    <div className="source-editor">
      {opening === 'loading' && <Spinner label="Opening the HTML source…" />}
      {opening instanceof Error && (
        <Alert tone="error" title="The HTML source could not be opened">
          <p>{`${opening.message} Press HTML source again to go back to the text, and try once more.`}</p>
        </Alert>
      )}
      <div ref={host} className="source-editor__code" />
      {opening === 'open' && (
        <p className="source-editor__hint" aria-hidden="true">
          {KEYS_HINT}
        </p>
      )}
    </div>
  )
}
