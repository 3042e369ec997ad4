import { useEditorState, type Editor } from '@tiptap/react'
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { shortcuts } from '../../../../src-shared/contract'
import { Button } from '../../ui'
import { BarButton, BarIcon } from './BarButton'
import { focusTextNow } from './caret'
import { findStateOf, goToMatch, replaceAll, replaceCurrent, search } from './find'
import './find-bar.css'

export interface FindBarProps {
  editor: Editor
  /** Shows the replace field, as Ctrl+H asks. */
  replace: boolean
  /** Changes each time Ctrl+F or Ctrl+H is pressed: the bar takes the focus again. */
  request: number
  /** What to find as the bar opens (a search result's words). */
  initialText?: string
  onClose(): void
}

/** Find (and replace) in the post: the matches are highlighted in the text; Escape goes back to it. */
export function FindBar({ editor, replace, request, initialText = '', onClose }: FindBarProps) {
  const [text, setText] = useState(initialText)
  const [matchCase, setMatchCase] = useState(false)
  const [wholeWord, setWholeWord] = useState(false)
  const [replacement, setReplacement] = useState('')
  /** How many "Replace all" replaced, shown until the query changes. */
  const [replaced, setReplaced] = useState<number | null>(null)
  const findInput = useRef<HTMLInputElement>(null)
  const replaceInput = useRef<HTMLInputElement>(null)
  const countId = useId()
  const { total, current } = useEditorState({
    editor,
    selector: ({ editor }) => {
      const { matches, current } = findStateOf(editor.state)
      return { total: matches.length, current }
    },
  })

  useEffect(() => {
    const field = replace && findInput.current?.value ? replaceInput.current : findInput.current
    field?.focus()
    field?.select()
  }, [replace, request])

  // Before the frame is drawn: the query typed and its highlights appear together.
  useLayoutEffect(() => {
    search(editor.view, { text, matchCase, wholeWord })
  }, [editor, text, matchCase, wholeWord])

  // The highlights go with the bar.
  useEffect(
    () => () => {
      if (!editor.isDestroyed) search(editor.view, null)
    },
    [editor],
  )

  function close() {
    onClose()
    focusTextNow(editor.view)
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault()
      close()
    }
  }

  function onFindKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return
    event.preventDefault()
    goToMatch(editor.view, event.shiftKey ? current - 1 : current + 1)
  }

  function onReplaceKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return
    event.preventDefault()
    replaceOne()
  }

  function replaceOne() {
    if (current === -1) goToMatch(editor.view, 0)
    else replaceCurrent(editor.view, replacement)
    keepFocusInBar()
  }

  // The button pressed may have nothing left to do and be disabled, which would drop the focus out of the bar.
  function keepFocusInBar() {
    replaceInput.current?.focus()
  }

  const count = text === '' ? '' : total === 0 ? 'No matches' : current === -1 ? `${total} matches` : `${current + 1} of ${total}`

  return (
    <div className="find-bar" role="search" aria-label={replace ? 'Find and replace in the post' : 'Find in the post'} onKeyDown={onKeyDown}>
      <div className="find-bar__row">
        <input
          ref={findInput}
          className="find-bar__input"
          type="search"
          aria-label="Find"
          placeholder="Find in the post"
          spellCheck={false}
          autoComplete="off"
          value={text}
          aria-describedby={countId}
          onChange={(event) => {
            setText(event.target.value)
            setReplaced(null)
          }}
          onKeyDown={onFindKeyDown}
        />
        <span className="find-bar__count" id={countId} role="status">
          {replaced !== null ? `Replaced ${replaced}` : count}
        </span>
        <span className="find-bar__buttons">
          <BarButton label="Previous match" keys={shortcuts.previousMatch.keys} disabled={total === 0} onClick={() => goToMatch(editor.view, current - 1)}>
            <BarIcon path="M5 12.5 10 7.5l5 5" />
          </BarButton>
          <BarButton label="Next match" keys={shortcuts.nextMatch.keys} disabled={total === 0} onClick={() => goToMatch(editor.view, current + 1)}>
            <BarIcon path="M5 7.5l5 5 5-5" />
          </BarButton>
          <BarButton
            label="Match case"
            pressed={matchCase}
            onClick={() => {
              setMatchCase(!matchCase)
              setReplaced(null)
            }}
          >
            <span className="find-bar__letters">Aa</span>
          </BarButton>
          <BarButton
            label="Whole word"
            pressed={wholeWord}
            onClick={() => {
              setWholeWord(!wholeWord)
              setReplaced(null)
            }}
          >
            <BarIcon path="M3 6v8h14V6M6.5 9.5h7" />
          </BarButton>
          <BarButton label="Close" keys={shortcuts.closeMenu.keys} onClick={close}>
            <BarIcon path="M5.5 5.5l9 9m0-9-9 9" />
          </BarButton>
        </span>
      </div>
      {replace && (
        <div className="find-bar__row">
          <input
            ref={replaceInput}
            className="find-bar__input"
            type="text"
            aria-label="Replace with"
            placeholder="Replace with"
            spellCheck={false}
            autoComplete="off"
            value={replacement}
            onChange={(event) => setReplacement(event.target.value)}
            onKeyDown={onReplaceKeyDown}
          />
          <span className="find-bar__buttons">
            <Button className="find-bar__action" disabled={total === 0 || !editor.isEditable} onClick={replaceOne}>
              Replace
            </Button>
            <Button
              className="find-bar__action"
              disabled={total === 0 || !editor.isEditable}
              onClick={() => {
                setReplaced(replaceAll(editor.view, replacement))
                keepFocusInBar()
              }}
            >
              Replace all
            </Button>
          </span>
        </div>
      )}
    </div>
  )
}
